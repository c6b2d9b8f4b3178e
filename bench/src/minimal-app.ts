/**
 * The minimal HTTP endpoints over the benchmark table, one Hono app: what `http-server.ts` serves
 * in its child process. Three handlers answer the same rows:
 *
 * - `GET /pagewise/items?cursor=...`: `fromKysely` + `CursorPagination` + `getPaginatedResponse`,
 *   a new paginator per request as a view makes it.
 * - `GET /bare/items?after=...`: the hand-written keyset statement run by the driver itself (`pg`'s
 *   named prepared statement, or a better-sqlite3 statement prepared once) and a hand-rolled
 *   `next` token.
 * - `GET /kysely/items?after=...`: the same keyset query written in Kysely by hand (a builder per
 *   request) over Pagewise's own Kysely instance, with the bare side's token: what a Kysely user's
 *   handler costs without Pagewise, on the same prepared statements.
 *
 * Pagewise's Kysely instance prepares its statements once through Pagewise's own options,
 * `nameStatements(pool)` on Postgres and `reusePreparedStatements(database)` on SQLite (what a
 * user who wants prepared statements writes), so the ratios measure Pagewise's work, not the
 * stock drivers' re-preparing.
 */

import { fromKysely, nameStatements, reusePreparedStatements } from '@pagewise/kysely-adapter';
import { ApiRequest, CursorPagination } from '@pagewise/rest';
import Database from 'better-sqlite3';
import { Hono } from 'hono';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { type BenchRow, COLUMNS } from './bench-table.js';
import type { BenchDatabase } from './contenders.js';
import { smallPool } from './database.js';
import { kyselyKeysetPage } from './kysely-keyset.js';
import { ORDERINGS, UNIQUE_KEY } from './orderings.js';

/** Where the rows live: a Postgres URL, or a SQLite file (read only). */
export type MinimalSource =
  | { readonly databaseUrl: string; readonly poolSize: number }
  | { readonly sqliteFile: string };

export interface MinimalApp {
  readonly app: Hono;
  close(): Promise<void>;
}

/** The token both hand-written handlers use: the last row's `created` (ms on Postgres, text on SQLite) and id. */
function token(created: unknown, id: number): string {
  const key = created instanceof Date ? created.getTime() : created;
  return Buffer.from(JSON.stringify([key, id])).toString('base64url');
}

/** The `after` row of a hand-written handler's token, `null` without one. */
function afterRow(after: string | undefined, sqlite: boolean): BenchRow | null {
  if (!after) return null;
  const [created, id] = JSON.parse(Buffer.from(after, 'base64url').toString()) as [number | string, number];
  return { id, created: (sqlite ? created : new Date(created)) as Date, score: null, title: '' };
}

/** `{ next, results }` of a hand-written handler from its `pageSize + 1` rows. */
function handBody(rows: readonly BenchRow[], pageSize: number, url: string, path: string) {
  const results = rows.slice(0, pageSize);
  const last = results.at(-1);
  const next =
    rows.length > pageSize && last
      ? `${new URL(url).origin}${path}?after=${token(last.created, last.id)}`
      : null;
  return { next, results };
}

/**
 * The app over `source`'s `table`, pages of `pageSize`.
 *
 * @example
 * const { app, close } = minimalApp({ sqliteFile: '/tmp/bench.sqlite' }, 'pagewise_bench_items', 50);
 */
export function minimalApp(source: MinimalSource, table: string, pageSize: number): MinimalApp {
  const uniform = ORDERINGS[0]!;
  const sqliteFile = 'sqliteFile' in source ? source.sqliteFile : null;
  const postgres = 'databaseUrl' in source ? source : null;
  const db = new Kysely<BenchDatabase>({
    dialect:
      postgres === null
        ? new SqliteDialect({
            database: reusePreparedStatements(new Database(sqliteFile!, { readonly: true })),
          })
        : new PostgresDialect({ pool: nameStatements(smallPool(postgres.databaseUrl, postgres.poolSize)) }),
  });
  const pool = postgres === null ? null : smallPool(postgres.databaseUrl, postgres.poolSize);
  const sqlite = sqliteFile === null ? null : new Database(sqliteFile, { readonly: true });
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
  app.get('/bare/items', async (c) => {
    const after = afterRow(c.req.query('after'), sqlite !== null);
    let rows: BenchRow[];
    if (sqlite) {
      rows = (
        after ? sqliteAfter!.all(after.created, after.id, pageSize + 1) : sqliteFirst!.all(pageSize + 1)
      ) as BenchRow[];
    } else {
      rows = (await pool!.query<BenchRow>(uniform.statement(table, after, pageSize + 1))).rows;
    }
    return c.json(handBody(rows, pageSize, c.req.url, '/bare/items'));
  });
  app.get('/kysely/items', async (c) => {
    const after = afterRow(c.req.query('after'), sqlite !== null);
    const rows = (await kyselyKeysetPage(db, table, 'uniform', after, pageSize + 1, {
      rowValues: true,
      nullsLast: true,
    }).execute()) as BenchRow[];
    return c.json(handBody(rows, pageSize, c.req.url, '/kysely/items'));
  });
  return {
    app,
    close: async () => {
      sqlite?.close();
      await Promise.all([db.destroy(), pool?.end()]);
    },
  };
}
