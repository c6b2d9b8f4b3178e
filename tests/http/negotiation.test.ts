// Content negotiation, Accept parsing for AcceptHeaderVersioning, Vary, 406 and the browsable
// page, through real HTTP on every binding.
import { describe, expect, it } from 'vitest';
import { buildRoutes } from './app.js';
import { describeBindings, send, useServer } from './bindings.js';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,*/*;q=0.8';

describeBindings('content negotiation', (binding) => {
  const get = useServer(binding, { routes: buildRoutes() });
  const accept = async (value: string | null, path = '/version/accept/') => {
    const answer = await send(get().server, path, { headers: value === null ? {} : { accept: value } });
    return answer;
  };
  const versionFor = async (value: string) => {
    const answer = await accept(value);
    expect(answer.status).toBe(200);
    return (answer.json() as { version: string | null }).version;
  };

  describe('Accept parsing (AcceptHeaderVersioning)', () => {
    it('several media ranges: the servable one is used', async () => {
      expect(await versionFor('text/plain, application/json; version=2')).toBe('2');
      expect(await versionFor('image/png;version=9, application/json;version=3')).toBe('3');
    });

    it('q-values: the best quality wins, q=0 refuses a type', async () => {
      const html = await accept('application/json; version=1; q=0.5, text/html; version=7; q=0.9');
      expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(html.text).toContain('&quot;version&quot;: &quot;7&quot;');
      expect(await versionFor('text/html;q=0, application/json;version=3')).toBe('3');
      const refused = await accept('application/json;q=0, */*;version=4');
      expect(refused.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(refused.text).toContain('&quot;version&quot;: &quot;4&quot;');
    });

    it('only q=0 ranges: 406', async () => {
      const answer = await accept('application/json; q=0, text/html; q=0');
      expect(answer.status).toBe(406);
      expect(answer.json()).toEqual({ detail: 'Could not satisfy the request Accept header.' });
    });

    it('quoted values, upper-case and padded parameter names', async () => {
      expect(await versionFor('application/json; version="2.0"')).toBe('2.0');
      expect(await versionFor('application/json; version="1,2"')).toBe('1,2');
      expect(await versionFor('Application/JSON ;  VERSION = 2 ')).toBe('2');
      expect(await versionFor('application/json; Version="a;b"')).toBe('a;b');
    });

    it('wildcards keep their parameters', async () => {
      expect(await versionFor('*/*; version=2')).toBe('2');
      expect(await versionFor('application/*; version=5')).toBe('5');
      expect(await versionFor('*/*')).toBeNull();
    });

    it('vendor types', async () => {
      const answer = await accept('application/vnd.pagewise+json; version=2');
      expect(answer.status).toBe(200);
      expect(answer.json()).toEqual({ version: '2' });
      expect(answer.headers.get('content-type')).toBe('application/vnd.pagewise+json');
    });

    it('no Accept header: JSON, default version', async () => {
      const answer = await accept(null);
      expect(answer.headers.get('content-type')).toBe('application/json');
      expect(answer.json()).toEqual({ version: null });
    });

    it('JSON indent parameter, as DRF', async () => {
      const answer = await accept('application/json; indent=2');
      expect(answer.text).toBe('{\n  "version": null\n}');
    });
  });

  describe('Vary', () => {
    it('every Accept-versioned response carries Vary: Accept, errors included', async () => {
      expect((await accept('application/json; version=1')).headers.get('vary')).toBe('Accept');
      const invalid = await send(get().server, '/invalid/accept/', {
        headers: { accept: 'application/json; version=v9' },
      });
      expect(invalid.status).toBe(406);
      expect(invalid.headers.get('vary')).toBe('Accept');
      const unsatisfiable = await accept('text/plain');
      expect(unsatisfiable.status).toBe(406);
      expect(unsatisfiable.headers.get('vary')).toBe('Accept');
    });

    it('a plain handler that versions by Accept varies too', async () => {
      const ok = await accept('application/json; version=1', '/raw/accept/');
      expect(ok.json()).toEqual({ version: '1' });
      expect(ok.headers.get('vary')).toBe('Accept');
      const refused = await accept('application/json; version=5', '/raw/accept/');
      expect(refused.status).toBe(406);
      expect(refused.headers.get('vary')).toBe('Accept');
    });

    it('merged into an existing Vary, without duplicates', async () => {
      const kept = await accept('application/json; version=3', '/version/accept-keeps-vary/');
      expect(kept.json()).toEqual({ version: '3' });
      expect(kept.headers.get('vary')).toBe('Cookie, accept');
      const error = await accept('application/json; version=9', '/version/accept-vary-origin/');
      expect(error.status).toBe(406);
      expect(error.headers.get('vary')).toBe('Origin, Accept');
    });
  });

  describe('renderers', () => {
    it('unsupported Accept: 406 JSON', async () => {
      const answer = await accept('text/plain', '/api/all/articles/');
      expect(answer.status).toBe(406);
      expect(answer.headers.get('content-type')).toBe('application/json');
      expect(answer.json()).toEqual({ detail: 'Could not satisfy the request Accept header.' });
    });

    it('?format= picks the renderer; an unknown format is 404', async () => {
      const html = await send(get().server, '/api/all/articles/?format=api');
      expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const missing = await send(get().server, '/api/all/articles/?format=xml');
      expect(missing.status).toBe(404);
      expect(missing.json()).toEqual({ detail: 'Not found.' });
    });

    it('a browser gets the browsable page: escaped results, pagination controls, Link header', async () => {
      const answer = await send(get().server, '/api/v2/articles/?page=2', { headers: { accept: BROWSER } });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(answer.text).toMatch(/^<!DOCTYPE html>/);
      expect(answer.text).toContain('Date &lt;b&gt;&amp;&lt;/b&gt;');
      expect(answer.text).not.toContain('<b>&</b>');
      expect(answer.text).toContain('<ul class="pagination">');
      const { origin } = get().server;
      expect(answer.text).toContain(`href="${origin}/api/v2/articles/?page=3"`);
      expect(answer.headers.get('link')).toBe(
        `<${origin}/api/v2/articles/?page=3>; rel="next", <${origin}/api/v2/articles/>; rel="prev"`,
      );
    });

    it('errors of a browser request render as a page too', async () => {
      const answer = await send(get().server, '/api/v2/articles/?page=99', { headers: { accept: BROWSER } });
      expect(answer.status).toBe(404);
      expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(answer.text).toContain('Invalid page.');
    });
  });
});
