// Issue 13: Pagewise views mounted as ordinary route handlers of each framework's own router
// (Express, Fastify, Hono on @hono/node-server, node:http), served on loopback. Path parameters
// come from the framework; errors Pagewise does not answer go to the framework's error handling.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fromArray } from '@pagewise/memory-adapter';
import {
  AcceptHeaderVersioning,
  type ApiRequest,
  ApiSettings,
  apiView,
  CursorPagination,
  ListView,
  NamespaceVersioning,
  NotFound,
  PageNumberPagination,
  ReadOnlyModelViewSet,
  type RouteHandler,
  type RouteHandlerOptions,
  Routes,
  reverse,
  toExpressHandler,
  toFastifyHandler,
  toHonoHandler,
  toNodeHandler,
  URLPathVersioning,
} from '@pagewise/rest';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTICLES, type Article } from './app.js';
import { listen, type RunningServer, send, serveHono } from './bindings.js';

const settings = new ApiSettings({
  defaultVersioningClass: URLPathVersioning,
  allowedVersions: ['v1', 'v2'],
});

class ThreeByCursor extends CursorPagination {
  override pageSize = 3;
  override ordering = 'title';
}

class ThreePerPage extends PageNumberPagination {
  override pageSize = 3;
}

const serializer = (row: Article, { request }: { request: ApiRequest }) => ({
  id: row.id,
  title: row.title,
  url: reverse('article-detail', { kwargs: { id: row.id }, request }),
});

class ArticleViewSet extends ReadOnlyModelViewSet<Article> {
  override settings = settings;
  override paginationClass = ThreeByCursor;
  override queryset = () => fromArray(ARTICLES);
  override serializer = serializer;
}

/** The table `reverse` reads: the framework routes below, by name, in Pagewise's syntax. */
const routes = new Routes()
  .add('/:version/articles/', 'article-list')
  .add('/:version/articles/:id/', 'article-detail');

/** One route as each framework mounts it: `:name` parameters mean the same on all four. */
interface Mount {
  readonly path: string;
  /** `get`: GET (and HEAD); `all`: every method, so the view answers OPTIONS and 405. */
  readonly on: 'get' | 'all';
  readonly handler: RouteHandler;
  /** Options of this mount only, over the suite's. */
  readonly options?: RouteHandlerOptions;
}

const MOUNTS: readonly Mount[] = [
  { path: '/:version/articles/', on: 'get', handler: ArticleViewSet.actions({ get: 'list' }) },
  { path: '/:version/articles/:id/', on: 'all', handler: ArticleViewSet.actions({ get: 'retrieve' }) },
  {
    path: '/:version/pages/',
    on: 'get',
    handler: ListView.asView({
      settings,
      queryset: () => fromArray(ARTICLES),
      paginationClass: ThreePerPage,
      serializer: (row) => row.id,
    }),
  },
  {
    path: '/plain/:word/',
    on: 'get',
    handler: apiView((request) => {
      if (request.params.word === 'missing') throw new NotFound('No such word.');
      if (request.params.word === 'boom') throw new Error('boom internals');
      return { word: request.params.word, version: request.version };
    }),
  },
  {
    path: '/echo/',
    on: 'all',
    handler: apiView(async (request) => ({ received: JSON.parse(await request.text()) }), {
      methods: ['POST'],
    }),
  },
  {
    path: '/namespaced/version/',
    on: 'get',
    handler: apiView((request) => ({ version: request.version }), { versioningClass: NamespaceVersioning }),
    options: { namespace: 'v1' },
  },
  {
    path: '/accept/version/',
    on: 'get',
    handler: apiView((request) => ({ version: request.version }), {
      settings: new ApiSettings({ allowedVersions: ['1.0', '2.0'] }),
      versioningClass: AcceptHeaderVersioning,
    }),
  },
];

interface Served {
  readonly server: RunningServer;
  /** Errors the framework's own error handler (node:http: `onError`) received. */
  readonly caught: unknown[];
}

interface Framework {
  readonly name: string;
  /** How the framework answers an error it was handed: its own handler, set up by the test. */
  readonly errorAnswer: { status: number; body: unknown };
  start(options: RouteHandlerOptions): Promise<Served>;
}

const APP_ERROR = { status: 503, body: { handledBy: 'app' } };

const FRAMEWORKS: readonly Framework[] = [
  {
    name: 'express',
    errorAnswer: APP_ERROR,
    start: async (options) => {
      const caught: unknown[] = [];
      const app = express();
      for (const mount of MOUNTS)
        app[mount.on](mount.path, toExpressHandler(mount.handler, { ...options, ...mount.options }));
      app.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
        caught.push(error);
        res.status(503).json({ handledBy: 'app' });
      });
      return { server: await listen(http.createServer(app)), caught };
    },
  },
  {
    name: 'fastify',
    errorAnswer: APP_ERROR,
    start: async (options) => {
      const caught: unknown[] = [];
      const app = Fastify({ logger: false });
      for (const mount of MOUNTS)
        app[mount.on](mount.path, toFastifyHandler(mount.handler, { ...options, ...mount.options }));
      app.setErrorHandler((error, _request, reply) => {
        caught.push(error);
        return reply.code(503).send({ handledBy: 'app' });
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      return { server: { origin: `http://127.0.0.1:${port}`, port, close: () => app.close() }, caught };
    },
  },
  {
    name: 'hono',
    errorAnswer: APP_ERROR,
    start: async (options) => {
      const caught: unknown[] = [];
      const app = new Hono();
      for (const mount of MOUNTS)
        app[mount.on](mount.path, toHonoHandler(mount.handler, { ...options, ...mount.options }));
      app.onError((error, c) => {
        caught.push(error);
        return c.json({ handledBy: 'app' }, 503);
      });
      return { server: await serveHono(app), caught };
    },
  },
  {
    name: 'node:http',
    // node:http has no error handler to pass to: onError hears it, the client gets the JSON 500.
    errorAnswer: { status: 500, body: { detail: 'A server error occurred.' } },
    start: async (options) => {
      const caught: unknown[] = [];
      // The caller's own dispatch (here a Routes table) hands the parameters over.
      const table = new Routes();
      for (const [index, mount] of MOUNTS.entries()) table.add(mount.path, `m${index}`, mount.handler);
      const handlers = new Map(
        MOUNTS.map((mount) => [
          mount.handler,
          toNodeHandler(mount.handler, {
            ...options,
            ...mount.options,
            onError: (error) => caught.push(error),
          }),
        ]),
      );
      const server = http.createServer((req, res) => {
        const match = table.match(new URL(req.url ?? '/', 'http://x').pathname);
        const mount = MOUNTS.find((m) => m.handler === match?.handler);
        if (
          match === null ||
          mount === undefined ||
          (mount.on === 'get' && !['GET', 'HEAD'].includes(req.method!))
        ) {
          res.writeHead(404).end();
          return;
        }
        void handlers.get(mount.handler)!(req, res, match.params);
      });
      return { server: await listen(server), caught };
    },
  },
];

interface Paged {
  next: string | null;
  previous: string | null;
  results: Array<{ id: number; title: string; url: string }>;
}

for (const framework of FRAMEWORKS) {
  describe(`per-route handlers [${framework.name}]`, () => {
    let served: Served;
    beforeAll(async () => {
      served = await framework.start({ routes });
    });
    afterAll(() => served.server.close());

    it('a viewset list walks every row once through absolute next links, params from the framework', async () => {
      const { origin } = served.server;
      let url: string | null = `${origin}/v2/articles/`;
      const seen: number[] = [];
      let pages = 0;
      while (url !== null) {
        expect(url.startsWith(`${origin}/v2/articles/?cursor=`) || pages === 0).toBe(true);
        const answer = await send(served.server, url.slice(origin.length));
        expect(answer.status).toBe(200);
        const body = answer.json() as Paged;
        if (body.next !== null) expect(answer.headers.get('link')).toContain(`<${body.next}>; rel="next"`);
        seen.push(...body.results.map((row) => row.id));
        for (const row of body.results) expect(row.url).toBe(`${origin}/v2/articles/${row.id}/`);
        url = body.next;
        pages += 1;
      }
      expect(pages).toBe(3);
      expect(seen).toEqual([...ARTICLES].sort((a, b) => a.title.localeCompare(b.title)).map((row) => row.id));
    });

    it('a viewset retrieve reads :id from the framework; a missing id is 404 naming the model', async () => {
      const answer = await send(served.server, '/v1/articles/3/');
      expect(answer.status).toBe(200);
      expect(answer.json()).toEqual({ id: 3, title: 'Kiwi', url: `${served.server.origin}/v1/articles/3/` });
      const missing = await send(served.server, '/v1/articles/99/');
      expect([missing.status, missing.json()]).toEqual([
        404,
        { detail: 'No Article matches the given query.' },
      ]);
    });

    it('404 Invalid cursor, 404 Invalid page, 404 for a version the scheme does not allow', async () => {
      const cursor = await send(served.server, '/v1/articles/?cursor=bm9wZQ');
      expect([cursor.status, cursor.json()]).toEqual([404, { detail: 'Invalid cursor' }]);
      const page = await send(served.server, '/v1/pages/?page=9');
      expect([page.status, page.json()]).toEqual([404, { detail: 'Invalid page.' }]);
      const version = await send(served.server, '/v3/pages/');
      expect([version.status, version.json()]).toEqual([404, { detail: 'Invalid version in URL path.' }]);
      expect(served.caught).toEqual([]);
    });

    it('page-number pages link absolutely, the version taken from the path parameter', async () => {
      const answer = await send(served.server, '/v1/pages/?page=2');
      expect(answer.json()).toEqual({
        count: 7,
        next: `${served.server.origin}/v1/pages/?page=3`,
        previous: `${served.server.origin}/v1/pages/`,
        results: [4, 5, 6],
      });
    });

    it('an apiView reads its parameter; an ApiError is answered, not passed on', async () => {
      const answer = await send(served.server, '/plain/hello/');
      expect([answer.status, answer.json()]).toEqual([200, { word: 'hello', version: null }]);
      const missing = await send(served.server, '/plain/missing/');
      expect([missing.status, missing.json()]).toEqual([404, { detail: 'No such word.' }]);
      expect(served.caught).toEqual([]);
    });

    it('an unexpected error goes to the framework’s error handling, never leaked', async () => {
      const before = served.caught.length;
      const answer = await send(served.server, '/plain/boom/');
      expect({ status: answer.status, body: answer.json() }).toEqual(framework.errorAnswer);
      expect(answer.text).not.toContain('boom internals');
      expect(served.caught.slice(before).map((error) => (error as Error).message)).toEqual([
        'boom internals',
      ]);
    });

    it('HEAD is GET without a body; a route mounted for all methods answers OPTIONS and 405', async () => {
      const head = await send(served.server, '/v1/articles/', { method: 'HEAD' });
      expect([head.status, head.text]).toEqual([200, '']);
      expect(head.headers.get('link')).toContain('rel="next"');
      const options = await send(served.server, '/v1/articles/3/', { method: 'OPTIONS' });
      expect(options.status).toBe(200);
      expect(options.json()).toMatchObject({
        name: expect.any(String),
        renders: ['application/json', 'text/html'],
      });
      const refused = await send(served.server, '/v1/articles/3/', { method: 'DELETE' });
      expect([refused.status, refused.json()]).toEqual([405, { detail: 'Method "DELETE" not allowed.' }]);
      expect(refused.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    });

    it('a POST body reaches the view (the framework parsed it or left the stream)', async () => {
      const response = await fetch(`${served.server.origin}/echo/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Plum', tags: ['a'] }),
      });
      expect([response.status, await response.json()]).toEqual([
        200,
        { received: { title: 'Plum', tags: ['a'] } },
      ]);
    });

    it('the namespace option feeds NamespaceVersioning; Accept versions vary on Accept, errors too', async () => {
      expect((await send(served.server, '/namespaced/version/')).json()).toEqual({ version: 'v1' });
      const accepted = await send(served.server, '/accept/version/', {
        headers: { accept: 'application/json; version=2.0' },
      });
      expect([accepted.json(), accepted.headers.get('vary')]).toEqual([{ version: '2.0' }, 'Accept']);
      const refused = await send(served.server, '/accept/version/', {
        headers: { accept: 'application/json; version=9' },
      });
      expect([refused.status, refused.json(), refused.headers.get('vary')]).toEqual([
        406,
        { detail: 'Invalid version in "Accept" header.' },
        'Accept',
      ]);
    });

    it('an untrusted Host is a 400 and never appears in a link', async () => {
      const answer = await send(served.server, '/v1/articles/', { headers: { host: 'evil.com' } });
      expect(answer.status).toBe(400);
      expect(answer.text).not.toContain('"next"');
      const allowed = await send(served.server, '/v1/pages/', {
        headers: { host: `localhost:${served.server.port}` },
      });
      expect((allowed.json() as Paged).next).toBe(`http://localhost:${served.server.port}/v1/pages/?page=2`);
    });
  });

  describe(`per-route handlers with trustProxy and no route table [${framework.name}]`, () => {
    let served: Served;
    beforeAll(async () => {
      served = await framework.start({ allowedHosts: ['api.example.org'], trustProxy: true });
    });
    afterAll(() => served.server.close());

    it('links take the trusted forwarded origin; paging needs no route table', async () => {
      const answer = await send(served.server, '/v1/pages/', {
        headers: { 'x-forwarded-host': 'api.example.org', 'x-forwarded-proto': 'https' },
      });
      expect(answer.status).toBe(200);
      expect((answer.json() as Paged).next).toBe('https://api.example.org/v1/pages/?page=2');
    });

    it('reverse without a route table is a ConfigurationError, handed to the framework', async () => {
      const before = served.caught.length;
      const answer = await send(served.server, '/v1/articles/3/', {
        headers: { 'x-forwarded-host': 'api.example.org' },
      });
      expect(answer.status).toBe(framework.errorAnswer.status);
      expect(served.caught.slice(before).map((error) => (error as Error).name)).toEqual([
        'ConfigurationError',
      ]);
    });
  });
}

describe('toNodeHandler with a pattern', () => {
  let server: RunningServer;
  beforeAll(async () => {
    const detail = toNodeHandler(ArticleViewSet.actions({ get: 'retrieve' }), {
      pattern: '/:version/articles/:id(\\d+)/',
      routes,
    });
    server = await listen(http.createServer((req, res) => detail(req, res)));
  });
  afterAll(() => server.close());

  it('reads the parameters from the path; a path the pattern refuses is 404 Not found.', async () => {
    const answer = await send(server, '/v2/articles/5/');
    expect(answer.json()).toEqual({ id: 5, title: 'Cherry', url: `${server.origin}/v2/articles/5/` });
    const other = await send(server, '/v2/articles/abc/');
    expect([other.status, other.json()]).toEqual([404, { detail: 'Not found.' }]);
  });
});
