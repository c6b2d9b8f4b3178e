// Issue 13: the Express middleware shadowed the app's own later routes (404 for every path it did
// not know) and kept errors from Express's `next(err)`. Served by a real Express app on loopback.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ApiResponse,
  createExpressMiddleware,
  type ExpressMiddlewareOptions,
  NotFound,
  Routes,
} from '@pagewise/core';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const routes = new Routes()
  .add('/api/hello/', 'hello', () => new ApiResponse({ hello: 'world' }))
  .add('/api/missing/', 'missing', () => {
    throw new NotFound('No such thing.');
  })
  .add('/api/boom/', 'boom', () => {
    throw new Error('boom internals');
  });

interface App {
  origin: string;
  /** What the app's error middleware received. */
  caught: unknown[];
  close(): Promise<void>;
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
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    caught,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
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
