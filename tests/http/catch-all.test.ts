// Issue 13: the Express middleware shadowed the app's own later routes (404 for every path it did
// not know) and kept errors from Express's `next(err)`; Hono's catch-all did the same. Served by
// real Express, Fastify and Hono apps on loopback.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ApiResponse,
  createExpressMiddleware,
  createFastifyPlugin,
  createHonoHandler,
  type ExpressMiddlewareOptions,
  type HonoHandlerOptions,
  NotFound,
  Routes,
} from '@pagewise/rest';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type RunningServer, serveHono } from './bindings.js';

const routes = new Routes()
  .add('/api/hello/', 'hello', () => new ApiResponse({ hello: 'world' }))
  .add('/api/missing/', 'missing', () => {
    throw new NotFound('No such thing.');
  })
  .add('/api/boom/', 'boom', () => {
    throw new Error('boom internals');
  });

interface App extends RunningServer {
  /** What the app's error middleware received. */
  readonly caught: unknown[];
}

async function start(options: Omit<ExpressMiddlewareOptions, 'routes'> = {}): Promise<App> {
  const caught: unknown[] = [];
  const app = express();
  app.use(createExpressMiddleware({ routes, ...options }));
  app.get('/health', (_req, res) => {
    res.json({ ok: true });
  });
  app.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    caught.push(error);
    res.status(503).json({ handledBy: 'app' });
  });
  return { ...(await listen(http.createServer(app))), caught };
}

async function get(app: App, path: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(app.origin + path);
  const text = await response.text();
  return { status: response.status, body: text.startsWith('{') ? JSON.parse(text) : text };
}

describe('createExpressMiddleware defaults', () => {
  let app: App;
  beforeAll(async () => {
    app = await start();
  });
  afterAll(() => app.close());

  it('falls through on paths it has no route for: the app’s later routes answer', async () => {
    expect(await get(app, '/health')).toEqual({ status: 200, body: { ok: true } });
    expect(await get(app, '/api/hello/')).toEqual({ status: 200, body: { hello: 'world' } });
    // No route at all: Express's own final 404, not Pagewise's.
    const unknown = await get(app, '/nowhere/');
    expect(unknown.status).toBe(404);
    expect(unknown.body).not.toEqual({ detail: 'Not found.' });
  });

  it('unexpected errors reach the app’s error middleware through next(err)', async () => {
    const before = app.caught.length;
    expect(await get(app, '/api/boom/')).toEqual({ status: 503, body: { handledBy: 'app' } });
    expect(app.caught.slice(before).map((error) => (error as Error).message)).toEqual(['boom internals']);
  });

  it('an ApiError is handled: its DRF answer, nothing passed to next', async () => {
    const before = app.caught.length;
    expect(await get(app, '/api/missing/')).toEqual({ status: 404, body: { detail: 'No such thing.' } });
    expect(app.caught.length).toBe(before);
  });
});

describe('createExpressMiddleware with the old behaviour', () => {
  let app: App;
  const reported: unknown[] = [];
  beforeAll(async () => {
    app = await start({ fallthrough: false, forwardErrors: false, onError: (error) => reported.push(error) });
  });
  afterAll(() => app.close());

  it('fallthrough: false answers 404 Not found. for unknown paths (the app’s routes are shadowed)', async () => {
    expect(await get(app, '/health')).toEqual({ status: 404, body: { detail: 'Not found.' } });
  });

  it('forwardErrors: false answers the JSON 500 and reports through onError', async () => {
    expect(await get(app, '/api/boom/')).toEqual({
      status: 500,
      body: { detail: 'A server error occurred.' },
    });
    expect(app.caught).toEqual([]);
    expect(reported.map((error) => (error as Error).message)).toEqual(['boom internals']);
  });
});

// Fastify's router prefers the app's own static and parametric routes to the plugin's `*`, so the
// catch-all shadows nothing there, whatever the order of registration.
describe('createFastifyPlugin beside the app’s own routes', () => {
  it('routes the app registers after the plugin still answer', async () => {
    const app = Fastify({ logger: false });
    await app.register(createFastifyPlugin({ routes }));
    app.get('/health', async () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = app.server.address() as AddressInfo;
      const origin = `http://127.0.0.1:${port}`;
      const health = await fetch(`${origin}/health`);
      expect([health.status, await health.json()]).toEqual([200, { ok: true }]);
      const hello = await fetch(`${origin}/api/hello/`);
      expect([hello.status, await hello.json()]).toEqual([200, { hello: 'world' }]);
      const unknown = await fetch(`${origin}/nowhere/`);
      expect([unknown.status, await unknown.json()]).toEqual([404, { detail: 'Not found.' }]);
    } finally {
      await app.close();
    }
  });
});

// Hono runs every handler matching a path in registration order, so `app.all('*', ...)` shadowed
// the app's later routes. Like Express's middleware it now falls through by default (the app's
// later routes and Hono's own notFound answer); `fallthrough: false` keeps Pagewise's 404 and
// `forwardErrors` hands errors to Hono's `app.onError`.
describe('createHonoHandler before the app’s own routes', () => {
  async function startHono(options: Omit<HonoHandlerOptions, 'routes'>) {
    const caught: unknown[] = [];
    const app = new Hono();
    app.all('*', createHonoHandler({ routes, ...options }));
    app.get('/health', (c) => c.json({ ok: true }));
    app.onError((error, c) => {
      caught.push(error);
      return c.json({ handledBy: 'app' }, 503);
    });
    const hono: App = { ...(await serveHono(app)), caught };
    return hono;
  }

  it('fallthrough: true lets later routes answer; forwardErrors: true hands errors to app.onError', async () => {
    const app = await startHono({ fallthrough: true, forwardErrors: true });
    try {
      expect(await get(app, '/health')).toEqual({ status: 200, body: { ok: true } });
      expect(await get(app, '/api/hello/')).toEqual({ status: 200, body: { hello: 'world' } });
      expect((await get(app, '/nowhere/')).body).toBe('404 Not Found');
      expect(await get(app, '/api/missing/')).toEqual({ status: 404, body: { detail: 'No such thing.' } });
      expect(await get(app, '/api/boom/')).toEqual({ status: 503, body: { handledBy: 'app' } });
      expect(app.caught.map((error) => (error as Error).message)).toEqual(['boom internals']);
    } finally {
      await app.close();
    }
  });

  it('by default: falls through to the app’s later routes and Hono’s notFound; JSON 500 for errors', async () => {
    const app = await startHono({ onError: () => {} });
    try {
      expect(await get(app, '/health')).toEqual({ status: 200, body: { ok: true } });
      expect(await get(app, '/api/hello/')).toEqual({ status: 200, body: { hello: 'world' } });
      expect(await get(app, '/nowhere/')).toEqual({ status: 404, body: '404 Not Found' });
      expect(await get(app, '/api/boom/')).toEqual({
        status: 500,
        body: { detail: 'A server error occurred.' },
      });
      expect(app.caught).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('fallthrough: false answers Pagewise’s 404 for unknown paths (the app’s later routes are shadowed)', async () => {
    const app = await startHono({ fallthrough: false });
    try {
      expect(await get(app, '/health')).toEqual({ status: 404, body: { detail: 'Not found.' } });
      expect(await get(app, '/api/hello/')).toEqual({ status: 200, body: { hello: 'world' } });
    } finally {
      await app.close();
    }
  });

  it('without a next (called directly, as a fetch handler) unknown paths get Pagewise’s 404', async () => {
    const handle = createHonoHandler({ routes });
    const response = await handle({ req: { raw: new Request('http://localhost/nowhere/') } });
    expect(response?.status).toBe(404);
    expect(await response?.json()).toEqual({ detail: 'Not found.' });
  });
});
