/**
 * Measures what one abusive GraphQL request costs the real demo process over loopback HTTP
 * (issue 29, part 5): a POST just under the 64 KiB body limit, holding as many aliases of
 * `articles(first: 100)` as fit, sent `--abusers` at a time for `--seconds`, while a plain
 * feed request (`GET /v1/articles/feed/`) is timed every 50 ms. `--request largest` sends the
 * largest request the limits accept instead (10 x `articles(first: 100)`, every field).
 *
 * Reported: each abusive answer's status, time and size, the rows its connections read (the
 * edges it returned plus one look-ahead row per connection that answered: a refused request runs
 * no resolver, so reads none), the server's RSS before and its peak (`VmHWM`) after, and the
 * plain request's latency before and during the abuse. On Postgres the rows the database read
 * are counted on its side too (`pg_stat_user_tables` of `articles`, read after the backends'
 * statistics are flushed: 11 s idle before and after): an answer cut short by an error (data
 * null) says nothing of the statements that ran for it.
 *
 * Run from examples/demo (the SQLite file is seeded with 100,000 articles on first use):
 *
 *   pnpm exec tsx test/graphql-abuse-measure.ts [--abusers 1] [--seconds 5] [--request abusive|largest]
 *     [--sqlite FILE] [--database-url URL] [--demo OTHER_CHECKOUT/examples/demo]
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { abusiveGraphqlBody, LARGEST_ALLOWED_QUERY } from './graphql-abuse.js';

const { values } = parseArgs({
  options: {
    abusers: { type: 'string', default: '1' },
    seconds: { type: 'string', default: '5' },
    request: { type: 'string', default: 'abusive' },
    // Another checkout's demo (its examples/demo), to measure it under the same load.
    demo: { type: 'string', default: fileURLToPath(new URL('..', import.meta.url)) },
    sqlite: { type: 'string', default: join(tmpdir(), 'pagewise-graphql-abuse', 'demo.sqlite') },
    'database-url': { type: 'string' },
  },
});
const abusers = Number(values.abusers);
const seconds = Number(values.seconds);

/**
 * On Postgres, a function that reads how many `articles` rows the database has read so far
 * (sequential and index fetches of every backend), once the backends' statistics are flushed:
 * a backend flushes them at most once a second, and an idle one within 10 s.
 */
async function databaseRowCounter(url: string | undefined): Promise<(() => Promise<number>) | undefined> {
  if (!url) return undefined;
  return async () => {
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: string }>(
        `select coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) as n
           from pg_stat_user_tables where relname = 'articles'`,
      );
      return Number(rows[0]?.n ?? 0);
    } finally {
      await client.end();
    }
  };
}

function rssMiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1]);
  return Math.round(kib / 1024);
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
const ms = (n: number) => `${n.toFixed(1)} ms`;

function summary(latencies: number[]): string {
  const sorted = [...latencies].sort((a, b) => a - b);
  return `n=${sorted.length} p50 ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))}, max ${ms(sorted.at(-1) ?? Number.NaN)}`;
}

interface Abuse {
  status: number;
  ms: number;
  bytes: number;
  rows: number;
  error: string | undefined;
  code: unknown;
}

async function main(): Promise<void> {
  // node itself with tsx's loader, so the pid is the server's (the tsx CLI runs it in a child).
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=@pagewise/source', 'src/server.ts'],
    {
      cwd: values.demo,
      env: {
        ...process.env,
        PORT: '0',
        SQLITE_FILE: values.sqlite,
        ...(values['database-url'] ? { DATABASE_URL: values['database-url'] } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const base = await new Promise<string>((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /(http:\/\/localhost:\d+)\/v1\/articles\//.exec(output)?.[1];
      if (url) resolve(url.replace('localhost', '127.0.0.1'));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`demo exited with ${code}: ${output}`)));
  });
  const pid = child.pid!;
  try {
    // A plain request that fails (a 500, a reset connection) is counted, and timed until it failed.
    const failures: string[] = [];
    const feed = async () => {
      const started = performance.now();
      try {
        const response = await fetch(`${base}/v1/articles/feed/`);
        await response.arrayBuffer();
        if (response.status !== 200) failures.push(`status ${response.status}`);
      } catch (error) {
        failures.push(String((error as { cause?: unknown }).cause ?? error));
      }
      return performance.now() - started;
    };
    for (let i = 0; i < 20; i += 1) await feed(); // warm-up
    const before: number[] = [];
    for (let i = 0; i < 40; i += 1) before.push(await feed());
    if (failures.length > 0)
      throw new Error(`plain requests failed before the abuse: ${failures.join(', ')}`);
    const { body, aliases } =
      values.request === 'largest'
        ? { body: JSON.stringify({ query: LARGEST_ALLOWED_QUERY }), aliases: 10 }
        : abusiveGraphqlBody();
    const databaseRows = await databaseRowCounter(values['database-url']);
    const rowsBefore = await databaseRows?.();
    const rssBefore = rssMiB(pid, 'VmRSS');

    const abuse = async (): Promise<Abuse> => {
      const started = performance.now();
      let response: Response;
      let text: string;
      try {
        response = await fetch(`${base}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        text = await response.text();
      } catch (error) {
        const cause = String((error as { cause?: unknown }).cause ?? error);
        return {
          status: 0,
          ms: performance.now() - started,
          bytes: 0,
          rows: 0,
          error: cause,
          code: undefined,
        };
      }
      const elapsed = performance.now() - started;
      const answer = JSON.parse(text) as {
        data?: Record<string, { edges: unknown[] }> | null;
        errors?: Array<{ message: string; extensions?: { code?: unknown } }>;
      };
      const connections = Object.values(answer.data ?? {}).filter((c) => c !== null);
      const rows = connections.reduce((sum, c) => sum + c.edges.length + 1, 0);
      return {
        status: response.status,
        ms: elapsed,
        bytes: Buffer.byteLength(text),
        rows,
        error: answer.errors?.[0]?.message,
        code: answer.errors?.[0]?.extensions?.code,
      };
    };

    const results: Abuse[] = [];
    const during: number[] = [];
    const deadline = performance.now() + seconds * 1000;
    let abusing = true;
    const loops = Array.from({ length: abusers }, async () => {
      // Each abuser sends one request after another until the time is up (at least one each).
      do results.push(await abuse());
      while (performance.now() < deadline);
    });
    const all = Promise.all(loops).then(() => {
      abusing = false;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    while (abusing) {
      during.push(await feed());
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await all;
    const peak = rssMiB(pid, 'VmHWM');
    const rssAfter = rssMiB(pid, 'VmRSS');

    const times = results.map((r) => r.ms).sort((a, b) => a - b);
    const statuses = [...new Set(results.map((r) => r.status))].join(',');
    console.log(`demo ${values.demo} on ${values['database-url'] ? 'postgres' : 'sqlite'}, pid ${pid}`);
    console.log(
      `${values.request} body: ${Buffer.byteLength(body)} bytes, ${aliases} aliases of articles(first: 100); ${abusers} at a time for ${seconds} s`,
    );
    console.log(
      `abusive requests: ${results.length}, status ${statuses}, time p50 ${ms(percentile(times, 50))}, max ${ms(times.at(-1)!)}`,
    );
    console.log(
      `  first answer: ${results[0]!.bytes} bytes, rows read ${results[0]!.rows}` +
        (results[0]!.error
          ? `, error ${JSON.stringify(results[0]!.error)} (${String(results[0]!.code)})`
          : ''),
    );
    console.log(`  rows read in all: ${results.reduce((sum, r) => sum + r.rows, 0)}`);
    if (databaseRows && rowsBefore !== undefined) {
      // Each plain feed request reads 21 rows (a page of 20 and the look-ahead).
      const read = (await databaseRows()) - rowsBefore - 21 * during.length;
      console.log(
        `  rows the database read for them (pg_stat_user_tables, the plain requests' taken off): ${read}`,
      );
    }
    console.log(`server RSS: ${rssBefore} MiB before, peak ${peak} MiB, ${rssAfter} MiB after`);
    console.log(`plain feed request before the abuse: ${summary(before)}`);
    console.log(`plain feed request during the abuse: ${summary(during)}, failed ${failures.length}`);
    for (const failure of new Set(failures)) console.log(`  failed: ${failure}`);
  } finally {
    child.kill('SIGTERM');
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
