// List views, pagination, ordering and error handling, through real HTTP on every binding.
import { describe, expect, it } from 'vitest';
import { buildRoutes } from './app.js';
import { describeBindings, send, useServer } from './bindings.js';

interface Paged<T> {
  count?: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

describeBindings('list views', (binding) => {
  const get = useServer(binding, { routes: buildRoutes() });
  const json = async <T>(path: string, init: { method?: string; headers?: Record<string, string> } = {}) => {
    const answer = await send(get().server, path, init);
    return { status: answer.status, headers: answer.headers, body: answer.json() as T };
  };

  describe('ListView: filter, paginate, serialize', () => {
    it('pages with count/next/previous and the RFC 8288 Link header', async () => {
      const { origin } = get().server;
      const { status, headers, body } = await json<Paged<{ id: number }>>('/api/v2/articles/?page=2');
      expect(status).toBe(200);
      expect(Object.keys(body)).toEqual(['count', 'next', 'previous', 'results']);
      expect(body.count).toBe(7);
      expect(body.results.map((a) => a.id)).toEqual([4, 5, 6]);
      expect(body.next).toBe(`${origin}/api/v2/articles/?page=3`);
      expect(body.previous).toBe(`${origin}/api/v2/articles/`);
      expect(headers.get('link')).toBe(
        `<${origin}/api/v2/articles/?page=3>; rel="next", <${origin}/api/v2/articles/>; rel="prev"`,
      );
      expect(headers.get('content-type')).toBe('application/json');
    });

    it('the serializer branches on request.version', async () => {
      const v1 = await json<Paged<object>>('/api/v1/articles/?page_size=1');
      expect(v1.body.results).toEqual([
        { id: 1, title: 'Mango', url: `${get().server.origin}/api/v1/articles/1/` },
      ]);
      const v2 = await json<Paged<object>>('/api/v2/articles/?page_size=1');
      expect(v2.body.results).toEqual([
        { id: 1, title: 'Mango', published: '2024-01-03', url: `${get().server.origin}/api/v2/articles/1/` },
      ]);
    });

    it('an invalid page is 404 Invalid page.', async () => {
      expect(await json('/api/v2/articles/?page=99')).toMatchObject({
        status: 404,
        body: { detail: 'Invalid page.' },
      });
    });

    it('paginationClass = null: the whole list as a bare array, ?page= ignored', async () => {
      const { body, headers } = await json<number[]>('/api/all/articles/?page=2');
      expect(body).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(headers.get('link')).toBeNull();
    });

    it('ApiSettings supply the default pagination and versioning classes', async () => {
      const { body } = await json<Paged<{ id: number; version: string }>>(
        '/api/settings/articles/?version=2',
      );
      expect(body.count).toBe(7);
      expect(body.results).toEqual([
        { id: 1, version: '2' },
        { id: 2, version: '2' },
      ]);
      expect((await json('/api/settings/articles/')).body).toMatchObject({
        results: [{ id: 1, version: '1' }, {}],
      });
      expect(await json('/api/settings/articles/?version=3')).toMatchObject({
        status: 404,
        body: { detail: 'Invalid version in query parameter.' },
      });
    });

    it('HEAD answers headers only', async () => {
      const answer = await send(get().server, '/api/v2/articles/', { method: 'HEAD' });
      expect(answer.status).toBe(200);
      expect(answer.text).toBe('');
      expect(answer.headers.get('link')).toContain('rel="next"');
    });

    it('an unhandled method is 405 with Allow', async () => {
      const answer = await json('/api/all/articles/', { method: 'POST' });
      expect(answer).toMatchObject({ status: 405, body: { detail: 'Method "POST" not allowed.' } });
      expect(answer.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    });
  });

  describe('OrderingFilter', () => {
    it('cursor pagination orders by the declared ?ordering= fields', async () => {
      const byTitle = await json<Paged<string>>('/api/cursor/articles/?ordering=title');
      expect(byTitle.body.results).toEqual(['Apple', 'Banana', 'Cherry']);
      const next = new URL(byTitle.body.next!);
      expect(next.searchParams.get('ordering')).toBe('title');
      const page2 = await json<Paged<string>>(next.pathname + next.search);
      expect(page2.body.results).toEqual(['Date <b>&</b>', 'Fig', 'Kiwi']);
      const back = new URL(page2.body.previous!);
      expect((await json<Paged<string>>(back.pathname + back.search)).body.results).toEqual([
        'Apple',
        'Banana',
        'Cherry',
      ]);
    });

    it('undeclared fields are dropped; nothing valid falls back to the paginator ordering', async () => {
      const fallback = ['Fig', 'Date <b>&</b>', 'Kiwi'];
      expect((await json<Paged<string>>('/api/cursor/articles/?ordering=secret')).body.results).toEqual(
        fallback,
      );
      expect((await json<Paged<string>>('/api/cursor/articles/')).body.results).toEqual(fallback);
      expect(
        (await json<Paged<string>>('/api/cursor/articles/?ordering=-title,secret')).body.results,
      ).toEqual(['Mango', 'Kiwi', 'Fig']);
    });

    it('offset pagination gets the query reordered; the view ordering is the default', async () => {
      expect((await json<Paged<string>>('/api/offset/articles/?ordering=title')).body.results).toEqual([
        'Apple',
        'Banana',
      ]);
      expect((await json<Paged<string>>('/api/offset/articles/?ordering=published')).body.results).toEqual([
        'Mango',
        'Apple',
      ]);
    });
  });

  describe('plain handlers and errors', () => {
    it('a plain handler pages by hand; the Link header survives', async () => {
      const { origin } = get().server;
      const { body, headers } = await json<Paged<number>>('/api/by-hand/');
      expect(body).toEqual({
        count: 7,
        next: `${origin}/api/by-hand/?page=2`,
        previous: null,
        results: [1, 2, 3, 4],
      });
      expect(headers.get('link')).toBe(`<${origin}/api/by-hand/?page=2>; rel="next"`);
    });

    it('an unknown route is 404 Not found.', async () => {
      expect(await json('/no/such/route/')).toMatchObject({ status: 404, body: { detail: 'Not found.' } });
      expect(await json('/api/v3/articles/')).toMatchObject({ status: 404, body: { detail: 'Not found.' } });
    });

    it('unexpected errors are 500 A server error occurred., reported, never leaked', async () => {
      const before = get().errors.length;
      const plain = await send(get().server, '/api/boom/');
      expect(plain.status).toBe(500);
      expect(plain.json()).toEqual({ detail: 'A server error occurred.' });
      expect(plain.text).not.toContain('secret internals');
      const view = await send(get().server, '/api/boom-view/');
      expect(view.status).toBe(500);
      expect(view.json()).toEqual({ detail: 'A server error occurred.' });
      expect(
        get()
          .errors.slice(before)
          .map((error) => (error as Error).message),
      ).toEqual(['secret internals', 'view internals']);
      expect((await send(get().server, '/api/all/articles/')).status).toBe(200);
    });
  });
});
