// Starts one route table on each real framework (127.0.0.1, port 0) so every HTTP case runs
// against all four bindings: Hono (Fetch API), Express, Fastify and plain node:http.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import {
  type BindingOptions,
  createExpressMiddleware,
  createFastifyPlugin,
  createFetchHandler,
  createHonoHandler,
  createNodeHandler,
} from '@pagewise/rest';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe } from 'vitest';

/** A running server: its origin (`http://127.0.0.1:PORT`) and how to stop it. */
export interface RunningServer {
  readonly origin: string;
  readonly port: number;
  close(): Promise<void>;
}

export interface Binding {
  readonly name: string;
  start(options: BindingOptions): Promise<RunningServer>;
}

function closeNodeServer(server: http.Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
}

/** A listening node:http server as a `RunningServer`. */
export function running(server: http.Server): RunningServer {
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, port, close: () => closeNodeServer(server) };
}

/** Listens on 127.0.0.1, port 0. */
export function listen(server: http.Server): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(running(server)));
  });
}

/** Serves a Hono app on 127.0.0.1, port 0, through @hono/node-server. */
export function serveHono(app: Hono): Promise<RunningServer> {
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () =>
      resolve(running(server as http.Server)),
    ) as http.Server;
  });
}

export const BINDINGS: readonly Binding[] = [
  {
    name: 'hono',
    start: (options) => {
      const app = new Hono();
      // The shared cases expect Pagewise's own 404 (its default, falling through, is tested in
      // catch-all.test.ts).
      app.all('*', createHonoHandler({ ...options, fallthrough: false }));
      return serveHono(app);
    },
  },
  {
    name: 'express',
    start: (options) => {
      const app = express();
      // The shared cases expect Pagewise's own 404 and 500 answers, so the catch-all keeps them
      // (its defaults, falling through and next(err), are tested in express-middleware.test.ts).
      app.use(createExpressMiddleware({ ...options, fallthrough: false, forwardErrors: false }));
      return listen(http.createServer(app));
    },
  },
  {
    name: 'fastify',
    start: async (options) => {
      const app = Fastify({ logger: false });
      await app.register(createFastifyPlugin(options));
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      return { origin: `http://127.0.0.1:${port}`, port, close: () => app.close() };
    },
  },
  {
    name: 'node:http',
    start: (options) => listen(http.createServer(createNodeHandler(options))),
  },
];

/**
 * `createFetchHandler` (Deno, Bun, workers) on Node through @hono/node-server: not in `BINDINGS`
 * (Hono's binding is the same Fetch path), for the cases that must hold on every entry point.
 */
export const FETCH_BINDING: Binding = {
  name: 'fetch',
  start: (options) =>
    new Promise((resolve) => {
      const server = serve({ fetch: createFetchHandler(options), port: 0, hostname: '127.0.0.1' }, () =>
        resolve(running(server as http.Server)),
      ) as http.Server;
    }),
};

/** What a test reads from an answer. */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  json(): unknown;
}

/**
 * Sends a real request. `fetch` is used unless a `host` header is given: fetch (undici) always
 * sends the connection's own Host, so spoofed hosts go through node:http's client.
 */
export async function send(
  server: RunningServer,
  path: string,
  { headers = {}, method = 'GET' }: { headers?: Record<string, string>; method?: string } = {},
): Promise<Answer> {
  const hasHost = Object.keys(headers).some((name) => name.toLowerCase() === 'host');
  if (!hasHost) {
    const response = await fetch(server.origin + path, { method, headers });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
  }
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port: server.port, path, method, headers, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const received = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            if (value === undefined) continue;
            for (const item of Array.isArray(value) ? value : [value]) received.append(name, item);
          }
          resolve({
            status: response.statusCode ?? 0,
            headers: received,
            text,
            json: () => JSON.parse(text),
          });
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end();
  });
}

/** A server started for a suite, with the unexpected errors its binding reported. */
export interface SuiteServer {
  readonly server: RunningServer;
  readonly errors: unknown[];
}

/**
 * Starts `binding` with `options` before the suite's tests and stops it after them. Read the
 * result inside tests only.
 */
export function useServer(binding: Binding, options: BindingOptions): () => SuiteServer {
  let current: SuiteServer | null = null;
  beforeAll(async () => {
    const errors: unknown[] = [];
    const server = await binding.start({ ...options, onError: (error) => errors.push(error) });
    current = { server, errors };
  });
  afterAll(async () => {
    await current?.server.close();
  });
  return () => {
    if (current === null) throw new Error('the server is not running');
    return current;
  };
}

/** One suite, many backends: `suite` runs once per binding, named `<title> [<binding>]`. */
export function describeBindings(title: string, suite: (binding: Binding) => void): void {
  for (const binding of BINDINGS) describe(`${title} [${binding.name}]`, () => suite(binding));
}
