// The demo through viewsets and routers (issue 12): the API root, 405s with Allow on every route
// (the OpenAPI document included), and the authors viewset's writes behind DEMO_WRITE_TOKEN.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { demoDatabases, type RunningDemo, serveDemo } from './harness.js';

const TOKEN = 'demo-secret-token';

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
}

async function call(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Answer> {
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...init.headers,
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

/** A request fetch refuses to send (TRACE), over plain node:http. */
function trace(url: string): Promise<{ status: number; allow: string | undefined }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: target.port,
        path: target.pathname,
        method: 'TRACE',
        headers: { host: 'localhost' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, allow: res.headers.allow }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe.each(demoDatabases())('demo viewsets on $name', (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;
  let demo: RunningDemo;
  let readOnly: RunningDemo;

  beforeAll(async () => {
    handle = await database.open();
    demo = await serveDemo(handle, 'path', { writeToken: TOKEN });
    readOnly = await serveDemo(handle, 'query');
  }, 120_000);

  afterAll(async () => {
    await demo?.close();
    await readOnly?.close();
    await handle?.cleanup();
  });

  test('the OpenAPI route answers GET only: other methods are 405 with Allow, OPTIONS is metadata', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const answer = await call(`${demo.base}/openapi.json`, { method });
      expect([method, answer.status, answer.body]).toEqual([
        method,
        405,
        { detail: `Method "${method}" not allowed.` },
      ]);
      expect(answer.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    }
    expect(await trace(`${demo.base}/openapi.json`)).toEqual({ status: 405, allow: 'GET, HEAD, OPTIONS' });
    const options = await call(`${demo.base}/openapi.json`, { method: 'OPTIONS' });
    expect(options).toMatchObject({ status: 200, body: { renders: ['application/json'] } });
    expect((await call(`${demo.base}/openapi.json`)).body).toMatchObject({ openapi: '3.1.0' });
  });

  test("the API root lists every list's absolute URL for the request's version", async () => {
    const root = await call(`${demo.base}/v2/`);
    expect(root.status).toBe(200);
    expect(root.body).toEqual({
      articles: `${demo.base}/v2/articles/`,
      authors: `${demo.base}/v2/authors/`,
      articles_offset: `${demo.base}/v2/articles/offset/`,
      articles_feed: `${demo.base}/v2/articles/feed/`,
      openapi: `${demo.base}/openapi.json`,
    });
    const query = await call(`${readOnly.base}/?version=v2`);
    expect(query.body).toEqual({
      articles: `${readOnly.base}/articles/?version=v2`,
      authors: `${readOnly.base}/authors/?version=v2`,
      articles_offset: `${readOnly.base}/articles/offset/?version=v2`,
      articles_feed: `${readOnly.base}/articles/feed/?version=v2`,
      openapi: `${readOnly.base}/openapi.json?version=v2`,
    });
  });

  test('articles: retrieve through the viewset, 404 for absent or ill-typed ids, 405 for writes', async () => {
    const first = (await call(`${demo.base}/v1/articles/?page_size=1`)).body as {
      results: Array<{ id: number }>;
    };
    const id = first.results[0]!.id;
    expect(await call(`${demo.base}/v1/articles/${id}/`)).toMatchObject({ status: 200, body: { id } });
    // DRF 3.15+ names the model of a missing row (a well-formed id, in range or not); an id the
    // key's type cannot hold is its bare Http404, 'Not found.' (issue 36 §5).
    for (const value of ['0', '999999', '-1', '2147483648', '99999999999999999999999']) {
      expect([value, await call(`${demo.base}/v1/articles/${value}/`)]).toMatchObject([
        value,
        { status: 404, body: { detail: 'No Article matches the given query.' } },
      ]);
    }
    for (const value of ['abc', '1.5', "1' or 1=1"]) {
      expect([value, await call(`${demo.base}/v1/articles/${encodeURIComponent(value)}/`)]).toMatchObject([
        value,
        { status: 404, body: { detail: 'Not found.' } },
      ]);
    }
    const post = await call(`${demo.base}/v1/articles/`, { method: 'POST', body: { title: 'x' } });
    expect(post).toMatchObject({ status: 405, body: { detail: 'Method "POST" not allowed.' } });
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const options = await call(`${demo.base}/v1/articles/`, { method: 'OPTIONS' });
    expect(options.body).toMatchObject({
      name: 'Article List',
      description: 'Articles, newest first, in numbered pages of 20 (page_size up to 100, page=last).',
      pagination: { parameters: [{ name: 'page' }, { name: 'page_size' }] },
    });
    expect(options.body).not.toHaveProperty('actions');
    expect((await call(`${demo.base}/v1/articles/${id}/`, { method: 'OPTIONS' })).body).toMatchObject({
      name: 'Article Instance',
    });
  });

  test('format suffixes and ?format= as DRF: /v1/articles.json, /v1/articles/<id>.json, a 404 with Vary and Allow', async () => {
    const first = (await call(`${demo.base}/v1/articles.json?page_size=1`)).body as {
      results: Array<{ id: number; url: string }>;
      next: string;
    };
    const id = first.results[0]!.id;
    expect(first.next).toBe(`${demo.base}/v1/articles.json?page=2&page_size=1`);
    expect(await call(`${demo.base}/v1/articles/${id}.json`)).toMatchObject({ status: 200, body: { id } });
    const html = await fetch(`${demo.base}/v1/articles/${id}/?format=api`);
    expect([html.status, html.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    const unknown = await call(`${demo.base}/v1/articles/${id}.5/`);
    expect([unknown.status, unknown.body]).toEqual([404, { detail: 'Not found.' }]);
    expect([unknown.headers.get('vary'), unknown.headers.get('allow')]).toEqual([
      'Accept',
      'GET, HEAD, OPTIONS',
    ]);
    expect((await call(`${demo.base}/v1/.json`)).body).toMatchObject({
      articles: `${demo.base}/v1/articles.json`,
      authors: `${demo.base}/v1/authors.json`,
    });
  });

  test('OPTIONS lists the author fields a POST takes only to a token holder', async () => {
    const anonymous = await call(`${demo.base}/v1/authors/`, { method: 'OPTIONS' });
    expect(anonymous.body).toMatchObject({ name: 'Author List' });
    expect(anonymous.body).not.toHaveProperty('actions');
    const writer = await call(`${demo.base}/v1/authors/`, {
      method: 'OPTIONS',
      headers: { authorization: `Token ${TOKEN}` },
    });
    expect((writer.body as { actions: unknown }).actions).toEqual({
      POST: {
        id: { type: 'integer', required: false, read_only: true, label: 'ID' },
        url: { type: 'url', required: false, read_only: true, label: 'Url' },
        name: { type: 'string', required: true, read_only: false, label: 'Name' },
        email: { type: 'string', required: true, read_only: false, label: 'Email' },
      },
    });
  });

  test('author writes answer 403 without the token and without DEMO_WRITE_TOKEN', async () => {
    const body = { name: 'Barbara Liskov', email: 'barbara@example.org' };
    for (const headers of [{}, { authorization: 'Token wrong' }, { authorization: TOKEN }]) {
      expect(await call(`${demo.base}/v1/authors/`, { method: 'POST', body, headers })).toMatchObject({
        status: 403,
        body: { detail: 'You do not have permission to perform this action.' },
      });
    }
    const unset = await call(`${readOnly.base}/authors/`, {
      method: 'POST',
      body,
      headers: { authorization: `Token ${TOKEN}` },
    });
    expect(unset.status).toBe(403);
  });

  test('author writes with the token: the whole cycle, with field errors and protected authors', async () => {
    const auth = { authorization: `Token ${TOKEN}` };
    const created = await call(`${demo.base}/v2/authors/`, {
      method: 'POST',
      headers: auth,
      body: { name: 'Barbara Liskov', email: 'barbara@example.org', id: 999 },
    });
    expect(created.status).toBe(201);
    const author = created.body as { id: number; url: string; displayName: string };
    expect(author).toMatchObject({ displayName: 'Barbara Liskov', contact: 'barbara@example.org' });
    expect(author.id).not.toBe(999);
    expect(author.url).toBe(`${demo.base}/v2/authors/${author.id}/`);
    expect(created.headers.get('location')).toBe(author.url);

    const invalid = await call(`${demo.base}/v1/authors/`, {
      method: 'POST',
      headers: auth,
      body: { name: '', email: 'nope' },
    });
    expect(invalid).toMatchObject({
      status: 400,
      body: { name: ['This field may not be blank.'], email: ['Enter a valid email address.'] },
    });
    expect(
      await call(`${demo.base}/v1/authors/`, { method: 'POST', headers: auth, body: { name: 'x' } }),
    ).toMatchObject({ status: 400, body: { email: ['This field is required.'] } });

    const patched = await call(`${demo.base}/v1/authors/${author.id}/`, {
      method: 'PATCH',
      headers: auth,
      body: { name: 'B. Liskov' },
    });
    expect(patched).toMatchObject({
      status: 200,
      body: { id: author.id, name: 'B. Liskov', email: 'barbara@example.org' },
    });
    const put = await call(`${demo.base}/v1/authors/${author.id}/`, {
      method: 'PUT',
      headers: auth,
      body: { name: 'Barbara', email: 'bl@example.org' },
    });
    expect(put).toMatchObject({ status: 200, body: { name: 'Barbara', email: 'bl@example.org' } });
    expect((await call(`${demo.base}/v1/authors/${author.id}/`)).body).toMatchObject({ name: 'Barbara' });

    const withArticles = await call(`${demo.base}/v1/authors/1/`, { method: 'DELETE', headers: auth });
    expect(withArticles).toMatchObject({
      status: 409,
      body: { detail: 'This author has articles; delete them first.' },
    });
    const gone = await call(`${demo.base}/v1/authors/${author.id}/`, { method: 'DELETE', headers: auth });
    // Pagewise sends the 204 without a Content-Type (tests/http/empty-responses.test.ts); the
    // demo's @hono/node-server 1.x writes "text/plain" on every bodiless answer itself (2.x does not).
    expect([gone.status, gone.body]).toEqual([204, null]);
    expect(await call(`${demo.base}/v1/authors/${author.id}/`)).toMatchObject({ status: 404 });
  });
});
