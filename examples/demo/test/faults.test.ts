import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { demoDatabases, type RunningDemo, serveDemo } from './harness.js';

interface Page {
  next: string | null;
  results: Array<{ id: number }>;
}

const UNAVAILABLE = { detail: 'The database is unavailable; try again shortly.' };

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

  test('with every pooled connection busy, REST answers 503 with Retry-After, then recovers', async () => {
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
      const rest = await fetch(`${demo.base}/v1/articles/feed/`);
      console.log(`pool exhausted: REST ${rest.status} after ${Math.round(performance.now() - started)} ms`);
      expect(rest.status).toBe(503);
      expect(rest.headers.get('retry-after')).toBe('5');
      expect(await rest.json()).toEqual(UNAVAILABLE);
      expect(errors.mock.calls.flat().join(' ')).toMatch(/timeout exceeded when trying to connect/);
    } finally {
      errors.mockRestore();
      release();
      await Promise.all(holders);
    }
    expect((await fetch(`${demo.base}/v1/articles/feed/`)).status).toBe(200);
  }, 30_000);
});
