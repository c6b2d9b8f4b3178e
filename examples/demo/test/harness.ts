import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { createHonoHandler, type Routes } from '@pagewise/rest';
import { Hono } from 'hono';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import pg from 'pg';
import { createDemoApp } from '../src/app.js';
import { type DemoDatabaseHandle, ensureSeeded, openDatabase } from '../src/database.js';
import type { VersioningName } from '../src/versioning.js';
import { mountDemoWebRoutes } from '../src/web-routes.js';

/** Rows seeded for tests: enough for many pages and equal timestamps, quick to seed. */
export const TEST_ARTICLES = 3000;

export interface DemoDatabaseCase {
  readonly name: 'sqlite' | 'postgres';
  open(): Promise<DemoDatabaseHandle & { readonly url?: string; cleanup(): Promise<void> }>;
}

/** A fresh Postgres database for the demo, so its tables never meet other suites' tables. */
export async function freshPostgres(baseUrl: string, suffix = ''): Promise<string> {
  const name = `pagewise_demo_test_${process.pid}${suffix}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name}`);
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.href;
}

export async function dropPostgres(baseUrl: string, dbUrl: string): Promise<void> {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${new URL(dbUrl).pathname.slice(1)} with (force)`);
  } finally {
    await admin.end();
  }
}

/** SQLite always; Postgres when `PG_URL` is set (CI sets it). */
export function demoDatabases(): DemoDatabaseCase[] {
  const cases: DemoDatabaseCase[] = [
    {
      name: 'sqlite',
      async open() {
        const dir = mkdtempSync(join(tmpdir(), 'pagewise-demo-'));
        const handle = await openDatabase(undefined, join(dir, 'demo.sqlite'));
        await ensureSeeded(handle, TEST_ARTICLES);
        return {
          ...handle,
          async cleanup() {
            await handle.db.destroy();
            rmSync(dir, { recursive: true, force: true });
          },
        };
      },
    },
  ];
  const pgUrl = process.env.PG_URL;
  if (pgUrl) {
    cases.push({
      name: 'postgres',
      async open() {
        const url = await freshPostgres(pgUrl);
        const handle = await openDatabase(url, '');
        await ensureSeeded(handle, TEST_ARTICLES);
        return {
          ...handle,
          url,
          async cleanup() {
            await handle.db.destroy();
            await dropPostgres(pgUrl, url);
          },
        };
      },
    });
  } else {
    console.warn('demo tests: PG_URL is not set, so the demo runs on SQLite only');
  }
  return cases;
}

export interface RunningDemo {
  readonly base: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Serves the demo app on a free loopback port through Hono, as the real server does. */
export async function serveDemo(
  database: DemoDatabaseHandle,
  versioning: VersioningName,
  options: { cursorSecret?: string; maxOffset?: number; writeToken?: string; now?: () => Date } = {},
): Promise<RunningDemo> {
  const app = await createDemoApp({ db: database.db, versioning, ...options });
  const hono = new Hono();
  mountDemoWebRoutes(hono, { db: database.db, versioning, cursorSecret: options.cursorSecret ?? null });
  hono.all(
    '*',
    createHonoHandler({
      routes: app.routes,
      fallthrough: false,
      allowedHosts: ['localhost', '127.0.0.1', 'v1.localhost', 'v2.localhost'],
      onError: () => {},
    }),
  );
  const server = serve({ fetch: hono.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://localhost:${port}`,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Every article id in the feed's order (`-published_at, -id`): what a full walk must return. */
export async function feedIds(handle: DemoDatabaseHandle): Promise<number[]> {
  const rows = await handle.db
    .selectFrom('articles')
    .select('id')
    .orderBy('published_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((row) => row.id);
}

/** Records how many rows every query returned: `db.withPlugin(counter)`. */
export class RowCounter implements KyselyPlugin {
  readonly counts: number[] = [];
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.counts.push(args.result.rows.length);
    return args.result;
  }
}

/** One request to the app, as `appFetch` sends it. */
export interface AppExchange {
  readonly method: string;
  /** A path (`/v1/articles/`), served at `http://localhost`. */
  readonly url: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

/** What `appFetch` answers: the status, the headers but `date` (by name, sorted) and the body text. */
export interface AppAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** The demo app's routes behind Hono, asked in-process at `http://localhost` (no socket, no port). */
export function appFetch(app: { readonly routes: Routes }): (exchange: AppExchange) => Promise<AppAnswer> {
  const hono = new Hono();
  hono.all(
    '*',
    createHonoHandler({
      routes: app.routes,
      fallthrough: false,
      allowedHosts: ['localhost'],
      onError: () => {},
    }),
  );
  return async ({ method, url, headers, body }) => {
    const answer = await hono.request(`http://localhost${url}`, {
      method,
      ...(headers ? { headers } : {}),
      ...(body !== undefined ? { body } : {}),
    });
    const names = [...answer.headers.keys()].filter((name) => name !== 'date').sort();
    return {
      status: answer.status,
      headers: Object.fromEntries(names.map((name) => [name, answer.headers.get(name)!])),
      body: await answer.text(),
    };
  };
}

/** A fresh SQLite demo database of `TEST_ARTICLES` articles, read through `orm`. */
export async function openSqliteDemo(
  orm: 'kysely' | 'drizzle' = 'kysely',
): Promise<DemoDatabaseHandle & { cleanup(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'pagewise-demo-'));
  const handle = await openDatabase(undefined, join(dir, 'demo.sqlite'), { orm });
  await ensureSeeded(handle, TEST_ARTICLES);
  return {
    ...handle,
    cleanup: async () => {
      await handle.db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
