import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import {
  describeWithPgInstances,
  type PgInstance,
  type PgWorkspace,
  pgWorkspace,
} from '../../../tests/support/pg-instance.js';
import { type DemoDatabaseHandle, ensureSeeded, openDatabase } from '../src/database.js';
import { demoDatabases, type RunningDemo, serveDemo, TEST_ARTICLES } from './harness.js';

interface Page {
  next: string | null;
  results: Array<{ id: number }>;
}

interface GraphqlAnswer {
  data?: { articles: { edges: unknown[] } } | null;
  errors?: Array<{ message: string; path?: string[]; extensions?: Record<string, unknown> }>;
}

const UNAVAILABLE = { detail: 'The database is unavailable; try again shortly.' };

/** A Relay page of the demo's /graphql: its status, its body as text and as JSON. */
async function graphqlPage(base: string): Promise<{ status: number; text: string; body: GraphqlAnswer }> {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ articles(first: 3) { edges { node { id } } } }' }),
  });
  const text = await response.text();
  return { status: response.status, text, body: JSON.parse(text) as GraphqlAnswer };
}

/** What a GraphQL client sees when the database cannot answer: no driver text, a code. */
function expectMaskedUnavailable(answer: { status: number; body: GraphqlAnswer }): void {
  expect(answer.status).toBe(200);
  expect(answer.body).toEqual({
    data: null,
    errors: [
      {
        message: UNAVAILABLE.detail,
        locations: [{ line: 1, column: 3 }],
        path: ['articles'],
        extensions: { code: 'SERVICE_UNAVAILABLE' },
      },
    ],
  });
}

const postgres = demoDatabases().find((d) => d.name === 'postgres');
if (!postgres)
  console.warn('database fault tests skipped: they kill Postgres backends, and PG_URL is not set');

describe.skipIf(!postgres)('database faults (Postgres)', () => {
  let handle: Awaited<ReturnType<NonNullable<typeof postgres>['open']>>;
  let demo: RunningDemo;
  let admin: pg.Client;
  let database: string;

  beforeAll(async () => {
    handle = await postgres!.open();
    demo = await serveDemo(handle, 'path');
    database = new URL(handle.url!).pathname.slice(1);
    admin = new pg.Client({ connectionString: handle.url });
    await admin.connect();
  }, 120_000);

  afterAll(async () => {
    await admin?.end();
    await demo?.close();
    await handle?.cleanup();
  });

  /** Kills the demo's backend that waits on our lock: the connection serving the request dies. */
  async function killBlockedBackends(): Promise<number> {
    for (let i = 0; i < 200; i += 1) {
      const waiting = await admin.query(
        `select count(*)::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid() and wait_event_type = 'Lock'`,
        [database],
      );
      if (waiting.rows[0].n > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const killed = await admin.query(
      `select count(*)::int as n from (select pg_terminate_backend(pid) from pg_stat_activity
         where datname = $1 and pid <> pg_backend_pid() and wait_event_type = 'Lock') t`,
      [database],
    );
    return killed.rows[0].n as number;
  }

  test('a connection killed mid-walk answers 503 with a JSON detail, the pool recovers and the walk goes on', async () => {
    const seen: number[] = [];
    let url: string | null = `${demo.base}/v1/articles/feed/?page_size=250`;
    let faults = 0;
    while (url) {
      if (seen.length > 0 && faults < 4) {
        await admin.query('begin');
        await admin.query('lock table articles in access exclusive mode');
        const pending = fetch(url);
        const killed = await killBlockedBackends();
        expect(killed).toBeGreaterThan(0);
        const failed = await pending;
        await admin.query('rollback');
        expect(failed.status).toBe(503);
        expect(failed.headers.get('content-type')).toMatch(/^application\/json/);
        expect(failed.headers.get('retry-after')).toBe('5');
        expect(await failed.json()).toEqual(UNAVAILABLE);
        faults += 1;
      }
      const response = await fetch(url);
      expect(response.status).toBe(200);
      const page = (await response.json()) as Page;
      seen.push(...page.results.map((r) => r.id));
      url = page.next;
    }
    expect(faults).toBe(4);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toHaveLength(3000);
    console.log(`database faults survived: ${faults}; walk completed over ${seen.length} rows`);
  }, 60_000);

  test('idle connections killed between requests do not crash the process; the next request succeeds', async () => {
    expect((await fetch(`${demo.base}/v1/articles/`)).status).toBe(200);
    await admin.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [database],
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1)
      statuses.push((await fetch(`${demo.base}/v1/articles/?page=${i + 1}`)).status);
    expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
    expect(statuses.at(-1)).toBe(200);
  });

  test('with every pooled connection busy, REST answers 503 with Retry-After and GraphQL a masked error, then both recover', async () => {
    // The pool holds 10 connections: hold them all, as 10 slow requests would.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const acquired: Promise<void>[] = [];
    const holders = Array.from({ length: 10 }, () => {
      let signal!: () => void;
      acquired.push(new Promise<void>((resolve) => (signal = resolve)));
      return handle.db.connection().execute(async () => {
        signal();
        await gate;
      });
    });
    await Promise.all(acquired);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const started = performance.now();
      const [rest, graphql] = await Promise.all([
        fetch(`${demo.base}/v1/articles/feed/`),
        graphqlPage(demo.base),
      ]);
      const waited = performance.now() - started;
      console.log(
        `pool exhausted: REST ${rest.status}, GraphQL ${graphql.status} after ${Math.round(waited)} ms`,
      );
      expect(rest.status).toBe(503);
      expect(rest.headers.get('retry-after')).toBe('5');
      expect(await rest.json()).toEqual(UNAVAILABLE);
      expectMaskedUnavailable(graphql);
      expect(graphql.text).not.toMatch(/timeout/);
      expect(errors.mock.calls.flat().join(' ')).toMatch(/timeout exceeded when trying to connect/);
    } finally {
      errors.mockRestore();
      release();
      await Promise.all(holders);
    }
    expect((await fetch(`${demo.base}/v1/articles/feed/`)).status).toBe(200);
    expect((await graphqlPage(demo.base)).body.data?.articles.edges).toHaveLength(3);
  }, 30_000);
});

describeWithPgInstances('the database restarting (a private Postgres server)', () => {
  let workspace: PgWorkspace;
  let server: PgInstance;
  let handle: DemoDatabaseHandle;
  let demo: RunningDemo;

  beforeAll(async () => {
    workspace = pgWorkspace('pagewise-demo-restart-');
    server = await workspace.startPrimary('demo');
    handle = await openDatabase(server.url(), '');
    await ensureSeeded(handle, TEST_ARTICLES);
    demo = await serveDemo(handle, 'path');
  }, 120_000);

  afterAll(async () => {
    await demo?.close();
    await handle?.db.destroy();
    await workspace?.stop();
  });

  test('while it is down GraphQL and REST say nothing of its address, the detail is logged, and both answer once it is back', async () => {
    expect((await fetch(`${demo.base}/v1/articles/feed/`)).status).toBe(200);
    expect((await graphqlPage(demo.base)).status).toBe(200);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      await server.stop();
      const graphql = await graphqlPage(demo.base);
      expectMaskedUnavailable(graphql);
      expect(graphql.text).not.toContain(String(server.port));
      expect(graphql.text).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|connect/);
      const rest = await fetch(`${demo.base}/v1/articles/feed/`);
      expect(rest.status).toBe(503);
      expect(rest.headers.get('retry-after')).toBe('5');
      const restText = await rest.text();
      expect(JSON.parse(restText)).toEqual(UNAVAILABLE);
      expect(restText).not.toContain(String(server.port));
      // The operator still learns what happened.
      expect(errors.mock.calls.flat().map(String).join(' ')).toContain(
        `ECONNREFUSED 127.0.0.1:${server.port}`,
      );
    } finally {
      errors.mockRestore();
      await server.start();
    }
    expect((await fetch(`${demo.base}/v1/articles/feed/`)).status).toBe(200);
    expect((await graphqlPage(demo.base)).body.data?.articles.edges).toHaveLength(3);
  }, 60_000);
});
