/**
 * The HTTP contenders, run in a child process (`startHttpServer` forks it) so that autocannon and
 * the server do not share an event loop: one Hono app, two endpoints returning the same rows.
 *
 * - `GET /pagewise/items?cursor=...`: `fromKysely` + `CursorPagination` + `getPaginatedResponse`,
 *   a new paginator per request as a view makes it.
 * - `GET /bare/items?after=...`: the hand-written keyset query through `pg` (the same named
 *   prepared statement as the raw-SQL contender) and a hand-rolled `next` token.
 *
 * With `BENCH_SQLITE_FILE` set, both run on that SQLite file instead (better-sqlite3; the bare
 * side runs one statement prepared once).
 *
 * Both sides prepare their statements once: the bare side by hand, Pagewise's Kysely instance
 * through Pagewise's own options, `nameStatements(pool)` on Postgres and
 * `reusePreparedStatements(database)` on SQLite (what a user who wants prepared statements
 * writes), so the ratio measures Pagewise's work, not the stock drivers' re-preparing.
 */
import { serve } from '@hono/node-server';
import { ApiRequest, CursorPagination } from '@pagewise/core';
import { fromKysely, nameStatements, reusePreparedStatements } from '@pagewise/kysely-adapter';
import Database from 'better-sqlite3';
import { Hono } from 'hono';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { type BenchRow, COLUMNS } from './bench-table.js';
import type { BenchDatabase } from './contenders.js';
import { smallPool } from './database.js';
import { answerProfileRequests } from './http-profiling.js';
import { ORDERINGS, UNIQUE_KEY } from './orderings.js';

const databaseUrl = process.env.BENCH_DATABASE_URL ?? '';
const table = process.env.BENCH_TABLE ?? '';
const pageSize = Number(process.env.BENCH_PAGE_SIZE ?? '50');
const poolSize = Number(process.env.BENCH_POOL_SIZE ?? '4');
const uniform = ORDERINGS[0]!;

const sqliteFile = process.env.BENCH_SQLITE_FILE ?? '';

const db = new Kysely<BenchDatabase>({
  dialect: sqliteFile
    ? new SqliteDialect({ database: reusePreparedStatements(new Database(sqliteFile, { readonly: true })) })
    : new PostgresDialect({ pool: nameStatements(smallPool(databaseUrl, poolSize)) }),
});
const pool = sqliteFile ? null : smallPool(databaseUrl, poolSize);
const sqlite = sqliteFile ? new Database(sqliteFile, { readonly: true }) : null;
const sqliteFirst = sqlite?.prepare(
  `SELECT ${COLUMNS.join(', ')} FROM ${table} ORDER BY created DESC, id DESC LIMIT ?`,
);
const sqliteAfter = sqlite?.prepare(
  `SELECT ${COLUMNS.join(', ')} FROM ${table} WHERE (created, id) < (?, ?) ORDER BY created DESC, id DESC LIMIT ?`,
);

const app = new Hono();

app.get('/pagewise/items', async (c) => {
  const pagination = new CursorPagination({ pageSize, ordering: uniform.pagewise });
  const query = fromKysely(db.selectFrom(table).select([...COLUMNS]), { db, uniqueKey: UNIQUE_KEY });
  const rows = await pagination.paginateQueryset(query, new ApiRequest({ url: c.req.url }));
  return pagination.getPaginatedResponse(rows!).toFetchResponse();
});

/** SQLite: `created` is ISO text, and the token carries it as it is. */
function sqliteBare(token: string | undefined, url: string) {
  let rows: Array<{ id: number; created: string }>;
  if (token) {
    const [created, id] = JSON.parse(Buffer.from(token, 'base64url').toString()) as [string, number];
    rows = sqliteAfter!.all(created, id, pageSize + 1) as typeof rows;
  } else {
    rows = sqliteFirst!.all(pageSize + 1) as typeof rows;
  }
  const results = rows.slice(0, pageSize);
  const last = results.at(-1);
  const next =
    rows.length > pageSize && last
      ? `${new URL(url).origin}/bare/items?after=${Buffer.from(JSON.stringify([last.created, last.id])).toString('base64url')}`
      : null;
  return { next, results };
}

app.get('/bare/items', async (c) => {
  const token = c.req.query('after');
  if (sqlite) return c.json(sqliteBare(token, c.req.url));
  let after: BenchRow | null = null;
  if (token) {
    const [ms, id] = JSON.parse(Buffer.from(token, 'base64url').toString()) as [number, number];
    after = { id, created: new Date(ms), score: null, title: '' };
  }
  const { rows } = await pool!.query<BenchRow>(uniform.statement(table, after, pageSize + 1));
  const results = rows.slice(0, pageSize);
  const last = results.at(-1);
  const next =
    rows.length > pageSize && last
      ? `${new URL(c.req.url).origin}/bare/items?after=${Buffer.from(JSON.stringify([last.created.getTime(), last.id])).toString('base64url')}`
      : null;
  return c.json({ next, results });
});

const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => {
  process.send?.({ port: info.port });
});

answerProfileRequests();

process.on('disconnect', () => {
  server.close();
  sqlite?.close();
  void Promise.all([db.destroy(), pool?.end()]).finally(() => process.exit(0));
});
