import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { dropPostgres, freshPostgres } from './harness.js';

const DEMO = fileURLToPath(new URL('..', import.meta.url));
const PG_URL = process.env.PG_URL;
if (!PG_URL) console.warn('load test skipped: it runs the demo on Postgres, and PG_URL is not set');

describe.skipIf(!PG_URL)('load: the cursor feed on Postgres (100,000 articles)', () => {
  let server: ChildProcess;
  let base: string;
  let databaseUrl: string;

  beforeAll(async () => {
    databaseUrl = await freshPostgres(PG_URL!, '_load');
    server = spawn(
      join(DEMO, 'node_modules', '.bin', 'tsx'),
      ['--conditions=@pagewise/source', 'src/server.ts'],
      {
        cwd: DEMO,
        env: { ...process.env, PORT: '0', DATABASE_URL: databaseUrl },
      },
    );
    base = await new Promise<string>((resolve, reject) => {
      let output = '';
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const url = /(http:\/\/localhost:\d+)\/v1\/articles\//.exec(output)?.[1];
        if (url) resolve(url);
      };
      server.stdout!.on('data', onData);
      server.stderr!.on('data', onData);
      server.on('exit', (code) => reject(new Error(`demo exited with ${code}: ${output}`)));
    });
  }, 120_000);

  afterAll(async () => {
    server?.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    if (databaseUrl) await dropPostgres(PG_URL!, databaseUrl);
  });

  test('100 connections for 20 s: zero errors, every answer 200', async () => {
    // Cursors at many depths, in two orderings, so the load is not one cached page.
    const paths: string[] = [];
    for (const ordering of ['', '&ordering=rating']) {
      let url: string | null = `${base}/v1/articles/feed/?page_size=50${ordering}`;
      for (let i = 0; i < 40 && url; i += 1) {
        paths.push(url.slice(base.length));
        const page = (await (await fetch(url)).json()) as { next: string | null };
        url = page.next;
      }
    }
    let turn = 0;
    const result = await autocannon({
      url: base,
      connections: 100,
      duration: 20,
      requests: [{ setupRequest: (request) => ({ ...request, path: paths[turn++ % paths.length]! }) }],
    });
    const summary =
      `load on the cursor feed (100 connections, 20 s): ${result.requests.total} requests, ` +
      `${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ` +
      `errors ${result.errors}, timeouts ${result.timeouts}, non-2xx ${result.non2xx}`;
    console.log(summary);
    expect(result.errors).toBe(0);
    expect(result.timeouts).toBe(0);
    expect(result.non2xx).toBe(0);
    expect(result.requests.total).toBeGreaterThan(1000);
    expect((await fetch(`${base}/v1/articles/feed/`)).status).toBe(200);
  }, 90_000);
});
