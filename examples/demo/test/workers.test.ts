import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type DemoProcess, startDemoProcess, stopDemoProcess } from './demo-process.js';

/**
 * Many API processes: the demo with `WORKERS=4` (a node:cluster primary and four workers sharing
 * one port and `CURSOR_SECRET`). Every request goes out on a new connection, which the primary
 * hands to the next worker; `X-Worker` (the serving pid) proves which process answered.
 */

const ARTICLES = 1500;
const SECRET = 'one secret for every worker';
const dir = mkdtempSync(join(tmpdir(), 'pagewise-workers-'));
const SQLITE_FILE = join(dir, 'demo.sqlite');
const running: ChildProcess[] = [];

interface Answer {
  status: number;
  worker: string | null;
  body: { next: string | null; results: Array<{ id: number }> };
}

/** GET on a fresh connection (no keep-alive), so the cluster primary picks the worker anew. */
function fetchFresh(url: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
      });
      response.on('end', () =>
        resolve({
          status: response.statusCode!,
          worker: (response.headers['x-worker'] as string | undefined) ?? null,
          body: JSON.parse(text),
        }),
      );
    }).on('error', reject);
  });
}

async function start(env: Record<string, string>): Promise<DemoProcess> {
  const started = await startDemoProcess({ SQLITE_FILE, SEED_ARTICLES: String(ARTICLES), ...env });
  running.push(started.child);
  if (started.url === null) throw new Error(`the demo did not start: ${started.output}`);
  return started;
}

const origin = (url: string) => new URL(url).origin;

describe('many API processes: the demo with WORKERS=4 sharing CURSOR_SECRET', () => {
  let cluster: DemoProcess;
  let expected: number[];

  beforeAll(async () => {
    cluster = await start({ WORKERS: '4', CURSOR_SECRET: SECRET });
    expect(cluster.output).toMatch(/\(4 workers\)/);
    // The feed's order, read straight from the database file the workers serve.
    const database = new SQLite(SQLITE_FILE, { readonly: true });
    expected = database
      .prepare('select id from articles order by published_at desc, id desc')
      .all()
      .map((row) => (row as { id: number }).id);
    database.close();
  }, 120_000);

  afterAll(async () => {
    await Promise.all(running.map(stopDemoProcess));
    rmSync(dir, { recursive: true, force: true });
  });

  test('a feed walk whose every page is served by another process than the page before is exact', async () => {
    const workers: string[] = [];
    const ids: number[] = [];
    let retries = 0;
    let url: string | null = `${origin(cluster.url!)}/v1/articles/feed/?page_size=50`;
    while (url !== null) {
      let answer = await fetchFresh(url);
      // The primary hands connections out round-robin; should the same worker answer twice in a
      // row anyway, ask again (a GET) so the next cursor is always decoded by another process.
      while (answer.worker === workers.at(-1) && retries < 20) {
        retries += 1;
        answer = await fetchFresh(url);
      }
      expect(answer.status).toBe(200);
      expect(answer.worker).toMatch(/^\d+$/);
      expect(answer.worker, `page ${workers.length + 1} served by the same process`).not.toBe(workers.at(-1));
      workers.push(answer.worker!);
      ids.push(...answer.body.results.map((article) => article.id));
      url = answer.body.next;
    }
    expect(ids).toEqual(expected);
    expect(new Set(workers).size).toBe(4);
    expect(workers).not.toContain(String(cluster.child.pid));
    console.log(
      `WORKERS=4: ${workers.length} pages, ${ids.length} articles exact; pages per worker pid: ` +
        `${JSON.stringify(Object.fromEntries([...new Set(workers)].map((w) => [w, workers.filter((x) => x === w).length])))}; ` +
        `${retries} same-worker answers asked again`,
    );
  }, 60_000);

  test('a separate process with the same secret follows the cluster cursor; another secret answers 404', async () => {
    const first = await fetchFresh(`${origin(cluster.url!)}/v1/articles/feed/?page_size=50`);
    const second = await fetchFresh(first.body.next!);
    const [same, other] = await Promise.all([
      start({ CURSOR_SECRET: SECRET }),
      start({ CURSOR_SECRET: 'another' }),
    ]);
    const next = new URL(first.body.next!);
    const onSame = await fetchFresh(`${origin(same.url!)}${next.pathname}${next.search}`);
    const onOther = await fetchFresh(`${origin(other.url!)}${next.pathname}${next.search}`);
    expect(onSame.status).toBe(200);
    expect(onSame.body.results.map((a) => a.id)).toEqual(second.body.results.map((a) => a.id));
    expect(onOther.status).toBe(404);
    expect(onOther.body).toEqual({ detail: 'Invalid cursor' });
  }, 120_000);

  test('a bad WORKERS value is refused before anything starts', async () => {
    const refused = await startDemoProcess({ WORKERS: 'many', SQLITE_FILE });
    expect(refused.code).toBe(1);
    expect(refused.output).toContain(
      'pagewise demo: WORKERS must be a whole number from 1 to 64 (got "many")',
    );
  }, 60_000);
});
