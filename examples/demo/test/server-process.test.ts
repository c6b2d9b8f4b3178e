import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { startDemoProcess } from './demo-process.js';

const dir = mkdtempSync(join(tmpdir(), 'pagewise-server-'));
const running: ChildProcess[] = [];

afterAll(() => {
  for (const child of running) child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

/** Starts `src/server.ts` as `pnpm start` does and waits for its "listening" line (or its exit). */
async function start(env: Record<string, string>) {
  const started = await startDemoProcess(env);
  running.push(started.child);
  return started;
}

describe('the demo server process (the README quick start)', () => {
  test('seeds an embedded SQLite file with a progress bar, serves, and reuses the file next time', async () => {
    const env = { SQLITE_FILE: join(dir, 'demo.sqlite'), SEED_ARTICLES: '1500' };
    const first = await start(env);
    expect(first.output).toMatch(/Seeding articles: 100% \(1500\/1500\)/);
    expect(first.url).toMatch(/\/v1\/articles\/$/);
    const page = (await (await fetch(first.url!)).json()) as { count: number; results: unknown[] };
    expect(page.count).toBe(1500);
    expect(page.results).toHaveLength(20);
    running.pop()!.kill('SIGTERM');

    const second = await start(env);
    expect(second.output).not.toMatch(/Seeding/);
    expect(((await (await fetch(second.url!)).json()) as { count: number }).count).toBe(1500);
  }, 60_000);

  test('VERSIONING switches the scheme', async () => {
    const { url } = await start({
      SQLITE_FILE: join(dir, 'demo.sqlite'),
      SEED_ARTICLES: '1500',
      VERSIONING: 'query',
    });
    expect(url).toMatch(/\/articles\/$/);
    const page = (await (await fetch(`${url}?version=v2&page_size=1`)).json()) as {
      results: Array<Record<string, unknown>>;
    };
    expect(page.results[0]).toHaveProperty('headline');
  }, 60_000);

  test('an unreachable database is a clear start-up error, not a stack trace', async () => {
    const { code, output } = await start({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nowhere' });
    expect(code).toBe(1);
    expect(output).toMatch(
      /pagewise demo: Cannot reach the database at postgres:\/\/postgres@127\.0\.0\.1:1\/nowhere: /,
    );
    expect(output).not.toMatch(/\n\s+at /);
  }, 60_000);

  test('a bad VERSIONING value is refused with the choices', async () => {
    const { code, output } = await start({ VERSIONING: 'nope', SQLITE_FILE: join(dir, 'demo.sqlite') });
    expect(code).toBe(1);
    expect(output).toContain('VERSIONING must be one of path, accept, namespace, host, query');
  }, 60_000);
});
