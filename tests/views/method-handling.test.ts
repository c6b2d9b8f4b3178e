// DRF's method handling on every kind of handler (issue 12): OPTIONS metadata, HEAD, 405 with
// Allow, and Vary on negotiated answers, through a real binding on loopback.

import { fromArray } from '@pagewise/memory-adapter';
import {
  AcceptHeaderVersioning,
  ApiRequest,
  type ApiResponse,
  apiView,
  createFetchHandler,
  ListView,
  PageNumberPagination,
  Routes,
} from '@pagewise/rest';
import { describe, expect, it } from 'vitest';

class TwoPerPage extends PageNumberPagination {
  override pageSize = 2;
  override pageSizeQueryParam = 'page_size';
}

/** Rows of a small list. */
class NumberList extends ListView<number> {
  override queryset = fromArray([1, 2, 3, 4, 5]);
  override paginationClass = TwoPerPage;
  override title = 'Numbers';
}

const request = (method: string, path = '/', headers: Record<string, string> = {}) =>
  new ApiRequest({ url: `http://testserver${path}`, method, headers });

const json = (response: ApiResponse) => JSON.parse(String(response.data));

describe('OPTIONS, HEAD and 405 on views', () => {
  it('a list view answers OPTIONS with DRF-style metadata, pagination parameters included', async () => {
    const response = await new NumberList().dispatch(request('OPTIONS'));
    expect(response.status).toBe(200);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const body = json(response);
    expect(body).toMatchObject({
      name: 'Numbers',
      renders: ['application/json', 'text/html'],
      parses: ['application/json'],
    });
    expect(typeof body.description).toBe('string');
    expect(body.pagination.parameters.map((p: { name: string }) => p.name)).toEqual(['page', 'page_size']);
  });

  it('HEAD mirrors GET without a body', async () => {
    const get = await new NumberList().dispatch(request('GET', '/?page=2'));
    const head = await new NumberList().dispatch(request('HEAD', '/?page=2'));
    expect(head.status).toBe(get.status);
    expect([...head.headers]).toEqual([...get.headers]);
    const wire = await head.toFetchResponse('HEAD').text();
    expect(wire).toBe('');
  });

  it('an unsupported method is 405 with Allow on list views and plain handlers', async () => {
    const listAnswer = await new NumberList().dispatch(request('DELETE'));
    expect(listAnswer.status).toBe(405);
    expect(json(listAnswer)).toEqual({ detail: 'Method "DELETE" not allowed.' });
    expect(listAnswer.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const plain = apiView(() => ({ ok: true }));
    const plainAnswer = (await plain(request('TRACE'))) as ApiResponse;
    expect(plainAnswer.status).toBe(405);
    expect(plainAnswer.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const options = (await plain(request('OPTIONS'))) as ApiResponse;
    expect(options.status).toBe(200);
    expect(json(options)).toMatchObject({ renders: ['application/json', 'text/html'] });
  });
});

describe('Vary on every negotiated answer', () => {
  it('a plain route handler whose AcceptHeaderVersioning refuses the version still varies on Accept', async () => {
    const routes = new Routes().add('/plain/', 'plain', (req: ApiRequest) => {
      const scheme = new AcceptHeaderVersioning({ allowedVersions: ['1', '2'] });
      req.version = scheme.determineVersion(req);
      req.versioningScheme = scheme;
      return { version: req.version };
    });
    const handle = createFetchHandler({ routes });
    const refused = await handle(
      new Request('http://localhost/plain/', { headers: { accept: 'application/json; version=9' } }),
    );
    expect(refused.status).toBe(406);
    expect(refused.headers.get('vary')).toBe('Accept');
    const accepted = await handle(
      new Request('http://localhost/plain/', { headers: { accept: 'application/json; version=2' } }),
    );
    expect(accepted.status).toBe(200);
    expect(accepted.headers.get('vary')).toBe('Accept');
  });
});

describe('the browsable page', () => {
  it('links the http(s) URLs of the data, escaped, and nothing else', async () => {
    const { browsableHtmlRenderer } = await import('@pagewise/rest');
    const html = browsableHtmlRenderer.render(
      {
        next: 'http://testserver/?a=1&page=2',
        evil: 'javascript:alert(1)',
        quoted: 'http://x/"><script>',
      },
      { request: null, status: 200, acceptedMediaType: 'text/html' },
    );
    expect(html).toContain(
      '&quot;<a href="http://testserver/?a=1&amp;page=2" rel="nofollow">http://testserver/?a=1&amp;page=2</a>&quot;',
    );
    expect(html).not.toContain('href="javascript');
    expect(html).not.toContain('<script>');
  });
});
