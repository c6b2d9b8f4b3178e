import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, expectTypeOf, test, vi } from 'vitest';
import { isPagewiseClientError, PagewiseClientError } from './client-error.js';
import { iteratePages, iterateResults, type PageBody, pageResults } from './iterate-pages.js';

interface Answer {
  readonly status?: number;
  readonly body?: unknown;
  /** Sent as is instead of JSON. */
  readonly text?: string;
  readonly headers?: Record<string, string>;
  /** Milliseconds before answering. */
  readonly delay?: number;
}

/** A real HTTP server on loopback answering each path + query from a table the test fills. */
let server: Server;
let base: string;
let answers = new Map<string, Answer>();
let requests: Array<{ url: string; headers: IncomingHttpHeaders }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push({ url: req.url ?? '', headers: req.headers });
    const answer = answers.get(req.url ?? '') ?? { status: 404, body: { detail: 'Not found.' } };
    const send = () => {
      const isText = answer.text !== undefined;
      res.writeHead(answer.status ?? 200, {
        'content-type': isText ? 'text/plain' : 'application/json',
        ...answer.headers,
      });
      res.end(isText ? answer.text : JSON.stringify(answer.body));
    };
    if (answer.delay === undefined) send();
    else setTimeout(send, answer.delay);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://localhost:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  answers = new Map();
  requests = [];
});

function serve(path: string, answer: Answer): void {
  answers.set(path, answer);
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const values: T[] = [];
  for await (const value of iterable) values.push(value);
  return values;
}

/** The error a walk rejects with, after the values it yielded before rejecting. */
async function failure<T>(iterable: AsyncIterable<T>): Promise<{ values: T[]; error: unknown }> {
  const values: T[] = [];
  try {
    for await (const value of iterable) values.push(value);
  } catch (error) {
    return { values, error };
  }
  throw new Error('the walk did not fail');
}

describe('following next', () => {
  test('body next links until next is null, then stops even though a Link header says more', async () => {
    serve('/items/', { body: { count: 3, next: `${base}/items/?page=2`, previous: null, results: [1, 2] } });
    serve('/items/?page=2', {
      body: { count: 3, next: null, previous: `${base}/items/`, results: [3] },
      headers: { link: '</items/?page=3>; rel="next"' },
    });
    expect(await collect(iterateResults<number>(`${base}/items/`))).toEqual([1, 2, 3]);
    expect(requests.map((request) => request.url)).toEqual(['/items/', '/items/?page=2']);
  });

  test('a body without next falls back to the Link header; relative targets resolve against the page', async () => {
    serve('/a/b/', { body: { results: ['x'] }, headers: { link: '<?page=2>; rel="next"' } });
    serve('/a/b/?page=2', { body: { results: ['y'] }, headers: { link: '<../c/>; rel=next' } });
    serve('/a/c/', { body: { results: ['z'] }, headers: { link: '</a/b/?page=2>; rel="prev"' } });
    expect(await collect(iterateResults<string>(`${base}/a/b/`))).toEqual(['x', 'y', 'z']);
  });

  test('a bare array is one page of items, and may page through Link (as GitHub does)', async () => {
    serve('/list', { body: [{ id: 1 }, { id: 2 }], headers: { link: `<${base}/list?after=2>; rel="next"` } });
    serve('/list?after=2', { body: [{ id: 3 }] });
    const pages = await collect(iteratePages<{ id: number }>(`${base}/list`));
    expect(pages).toEqual([[{ id: 1 }, { id: 2 }], [{ id: 3 }]]);
    const ids: number[] = [];
    for await (const item of iterateResults<{ id: number }>(`${base}/list`)) ids.push(item.id);
    expect(ids).toEqual([1, 2, 3]);
  });

  test('a redirected first request resolves relative links against where it landed', async () => {
    serve('/old/', { status: 301, body: {}, headers: { location: '/new/' } });
    serve('/new/', { body: { results: [1] }, headers: { link: '<?page=2>; rel=next' } });
    serve('/new/?page=2', { body: { next: null, results: [2] } });
    expect(await collect(iterateResults(`${base}/old/`))).toEqual([1, 2]);
  });

  test('each iteration walks anew; breaking out fetches no further page', async () => {
    serve('/p', { body: { next: `${base}/p?2`, results: [1] } });
    serve('/p?2', { body: { next: null, results: [2] } });
    const items = iterateResults<number>(`${base}/p`);
    expect(await collect(items)).toEqual([1, 2]);
    expect(await collect(items)).toEqual([1, 2]);
    for await (const item of items) if (item === 1) break;
    expect(requests.map((request) => request.url)).toEqual(['/p', '/p?2', '/p', '/p?2', '/p']);
  });

  test('headers go with every request; accept defaults to JSON unless given', async () => {
    serve('/h', { body: { next: `${base}/h?2`, results: [] } });
    serve('/h?2', { body: { next: null, results: [] } });
    await collect(iteratePages(`${base}/h`, { headers: { authorization: 'Token t' } }));
    expect(requests.map((request) => [request.headers.authorization, request.headers.accept])).toEqual([
      ['Token t', 'application/json'],
      ['Token t', 'application/json'],
    ]);
    requests = [];
    await collect(iteratePages(`${base}/h`, { headers: [['Accept', 'application/json; version=v2']] }));
    expect(requests.map((request) => request.headers.accept)).toEqual([
      'application/json; version=v2',
      'application/json; version=v2',
    ]);
  });

  test('a custom fetch sends every request', async () => {
    serve('/f', { body: { next: `${base}/f?2`, results: [1] } });
    serve('/f?2', { body: { next: null, results: [2] } });
    const sent: string[] = [];
    const items = iterateResults<number>(new URL(`${base}/f#top`), {
      fetch: (input, init) => {
        sent.push(input);
        return fetch(input, init);
      },
    });
    expect(await collect(items)).toEqual([1, 2]);
    expect(sent).toEqual([`${base}/f`, `${base}/f?2`]);
  });

  test('in a browser a relative start URL resolves against the document, as fetch does', async () => {
    serve('/docs/list/', { body: { next: null, results: ['r'] } });
    vi.stubGlobal('location', { href: `${base}/docs/page.html` });
    try {
      expect(await collect(iterateResults('list/'))).toEqual(['r']);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  test('a start URL that is not absolute, or a header that is not one, fails at the call', () => {
    expect(() => iteratePages('/relative/')).toThrow(TypeError);
    expect(() => iterateResults(`${base}/`, { headers: { 'bad header': 'x' } })).toThrow(TypeError);
    expect(requests).toHaveLength(0);
  });
});

test('typed by the caller: items, pages and page results carry the item type', () => {
  interface Article {
    id: number;
    title: string;
  }
  const url = 'http://localhost/articles/';
  expectTypeOf(iterateResults<Article>(url)).toEqualTypeOf<AsyncIterable<Article>>();
  expectTypeOf(iteratePages<Article>(url)).toEqualTypeOf<AsyncIterable<PageBody<Article>>>();
  expectTypeOf(pageResults<Article>([])).toEqualTypeOf<Article[]>();
  expectTypeOf(iterateResults(url)).toEqualTypeOf<AsyncIterable<unknown>>();
});

describe('loop guard', () => {
  test('a next link back to an earlier page rejects with code loop after the pages before it', async () => {
    serve('/l?1', { body: { next: `${base}/l?2`, results: [1] } });
    serve('/l?2', { body: { next: `${base}/l?1#again`, results: [2] } });
    const { values, error } = await failure(iterateResults<number>(`${base}/l?1`));
    expect(values).toEqual([1, 2]);
    expect(error).toBeInstanceOf(PagewiseClientError);
    expect(error).toMatchObject({ code: 'loop', status: 200, url: `${base}/l?1` });
    expect(requests).toHaveLength(2);
  });

  test('a page whose Link next is itself', async () => {
    serve('/self', { body: [1], headers: { link: '</self>; rel="next"' } });
    const { error } = await failure(iteratePages(`${base}/self`));
    expect(error).toMatchObject({ code: 'loop', url: `${base}/self` });
    expect(requests).toHaveLength(1);
  });
});

describe('errors', () => {
  test('a non-2xx answer mid-walk carries status and the body detail', async () => {
    serve('/e', { body: { next: `${base}/e?page=2`, results: [1] } });
    serve('/e?page=2', { status: 404, body: { detail: 'Invalid page.' } });
    const { values, error } = await failure(iterateResults(`${base}/e`));
    expect(values).toEqual([1]);
    expect(error).toBeInstanceOf(PagewiseClientError);
    expect(error).toBeInstanceOf(Error);
    expect(isPagewiseClientError(error)).toBe(true);
    const clientError = error as PagewiseClientError;
    expect({ ...clientError, message: clientError.message, name: clientError.name }).toEqual({
      status: 404,
      code: 'http_error',
      detail: 'Invalid page.',
      url: `${base}/e?page=2`,
      body: { detail: 'Invalid page.' },
      message: `Invalid page. (http_error, status 404, ${base}/e?page=2)`,
      name: 'PagewiseClientError',
    });
  });

  test('another copy of the package is recognised by its brand, plain errors are not', () => {
    const foreign = Object.create({ [Symbol.for('@pagewise/client.PagewiseClientError')]: true }) as object;
    expect(isPagewiseClientError(foreign)).toBe(true);
    expect(isPagewiseClientError(new Error('x'))).toBe(false);
    expect(isPagewiseClientError(null)).toBe(false);
  });

  test('an answer without a JSON detail falls back to the status text', async () => {
    serve('/boom', { status: 502, text: 'upstream down' });
    const { error } = await failure(iteratePages(`${base}/boom`));
    expect(error).toMatchObject({ status: 502, detail: 'Bad Gateway', body: 'upstream down' });
    serve('/v', { status: 400, body: { page_size: ['A valid integer is required.'] } });
    expect((await failure(iteratePages(`${base}/v`))).error).toMatchObject({
      status: 400,
      detail: 'Bad Request',
      body: { page_size: ['A valid integer is required.'] },
    });
  });

  test.each([
    ['not JSON', { text: '<html></html>' }, 'The answer is not JSON.'],
    ['an object without results', { body: { items: [] } }, 'neither an array nor an object'],
    ['a next that is not a string', { body: { next: 5, results: [] } }, '"next" must be a URL or null'],
  ])('a 2xx answer that is %s rejects with invalid_body', async (_name, answer, detail) => {
    serve('/bad', answer);
    const { error } = await failure(iteratePages(`${base}/bad`));
    expect(error).toMatchObject({ status: 200, code: 'invalid_body', url: `${base}/bad` });
    expect((error as PagewiseClientError).detail).toContain(detail);
  });

  test('a next link that is not a URL rejects with invalid_link', async () => {
    serve('/bad-link', { body: { next: 'http://[::1', results: [] } });
    expect((await failure(iteratePages(`${base}/bad-link`))).error).toMatchObject({ code: 'invalid_link' });
  });

  test('a next link to another origin is refused unless allowed', async () => {
    const other = base.replace('localhost', '127.0.0.1');
    serve('/x', { body: { next: `${other}/y`, results: [1] } });
    serve('/y', { body: { next: null, results: [2] } });
    const { values, error } = await failure(
      iterateResults(`${base}/x`, { headers: { authorization: 'secret' } }),
    );
    expect(values).toEqual([1]);
    expect(error).toMatchObject({ code: 'cross_origin', url: `${other}/y` });
    expect(requests).toHaveLength(1);
    expect(await collect(iterateResults(`${base}/x`, { allowCrossOrigin: true }))).toEqual([1, 2]);
  });
});

describe('signal', () => {
  test('aborting between pages stops the walk before the next request', async () => {
    serve('/s', { body: { next: `${base}/s?2`, results: [1] } });
    serve('/s?2', { body: { next: null, results: [2] } });
    const controller = new AbortController();
    const seen: number[] = [];
    const walk = async () => {
      for await (const item of iterateResults<number>(`${base}/s`, { signal: controller.signal })) {
        seen.push(item);
        controller.abort();
      }
    };
    await expect(walk()).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen).toEqual([1]);
    expect(requests).toHaveLength(1);
  });

  test('aborting during a request cancels it and rejects with the reason', async () => {
    serve('/slow', { body: { next: null, results: [1] }, delay: 2_000 });
    const controller = new AbortController();
    const reason = new Error('user went away');
    setTimeout(() => controller.abort(reason), 50);
    const started = performance.now();
    await expect(collect(iteratePages(`${base}/slow`, { signal: controller.signal }))).rejects.toBe(reason);
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  test('a fetch that ignores the signal still stops the walk', async () => {
    serve('/deaf', { body: { next: `${base}/deaf?2`, results: [1] }, delay: 100 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const pages: PageBody[] = [];
    const walk = async () => {
      const deafFetch = (input: string) => fetch(input);
      for await (const page of iteratePages(`${base}/deaf`, { signal: controller.signal, fetch: deafFetch }))
        pages.push(page);
    };
    await expect(walk()).rejects.toMatchObject({ name: 'AbortError' });
    expect(pages).toEqual([]);
    expect(requests).toHaveLength(1);
  });
});
