/**
 * The HTTP contenders, run in a child process (`startServer` forks it) so that autocannon and
 * the server do not share an event loop: `minimal-app.ts`'s endpoints (Pagewise, the bare
 * driver handler and the hand-written Kysely handler, all returning the same rows) served by
 * `@hono/node-server`.
 *
 * With `BENCH_SQLITE_FILE` set, they run on that SQLite file (better-sqlite3) instead of the
 * Postgres database at `BENCH_DATABASE_URL`.
 */
import { serve } from '@hono/node-server';
import { minimalApp } from './minimal-app.js';

const sqliteFile = process.env.BENCH_SQLITE_FILE ?? '';
const { app, close } = minimalApp(
  sqliteFile
    ? { sqliteFile }
    : {
        databaseUrl: process.env.BENCH_DATABASE_URL ?? '',
        poolSize: Number(process.env.BENCH_POOL_SIZE ?? '4'),
      },
  process.env.BENCH_TABLE ?? '',
  Number(process.env.BENCH_PAGE_SIZE ?? '50'),
);

const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => {
  process.send?.({ port: info.port });
});

process.on('disconnect', () => {
  server.close();
  void close().finally(() => process.exit(0));
});
