/**
 * The demo's cursor endpoint against a bare handler, in a child process (`measureHttp` forks it).
 * The demo app is built exactly as its server builds it (`createDemoApp` + `createHonoHandler`);
 * the bare handler sits on the same Hono app and database, runs the same keyset SQL through the
 * same Kysely instance, and writes the same v1 article JSON by hand.
 */
import { serve } from '@hono/node-server';
import { createHonoHandler } from '@pagewise/rest';
import { Hono } from 'hono';
import { createDemoApp } from '../../examples/demo/src/app.js';
import { ensureSeeded, openDatabase } from '../../examples/demo/src/database.js';

const databaseUrl = process.env.BENCH_DATABASE_URL ?? '';
const articles = Number(process.env.BENCH_DEMO_ARTICLES ?? '100000');
const pageSize = Number(process.env.BENCH_PAGE_SIZE ?? '50');

// No URL: the demo's own SQLite file at BENCH_SQLITE_FILE.
// Postgres with named statements unless BENCH_DEMO_UNNAMED is set: the served demo's schema
// stays put (the demo's tests, which recreate tables, leave them off).
const database = await openDatabase(databaseUrl || undefined, process.env.BENCH_SQLITE_FILE ?? '', {
  nameStatements: !process.env.BENCH_DEMO_UNNAMED,
});
const sqlite = database.dialect === 'sqlite';
await ensureSeeded(database, articles);
const { db } = database;
const demo = await createDemoApp({ db });

const hono = new Hono();

hono.get('/bare/articles/feed/', async (c) => {
  const token = c.req.query('after');
  let query = db
    .selectFrom('articles')
    .selectAll()
    .orderBy('published_at', 'desc')
    .orderBy('id', 'desc')
    .limit(pageSize + 1);
  if (token) {
    const [ms, id] = JSON.parse(Buffer.from(token, 'base64url').toString()) as [number, number];
    query = query.where(({ eb, refTuple, tuple }) =>
      // SQLite stores the demo's timestamps as ISO text.
      eb(
        refTuple('published_at', 'id'),
        '<',
        tuple((sqlite ? new Date(ms).toISOString() : new Date(ms)) as never, id),
      ),
    );
  }
  const rows = await query.execute();
  const origin = new URL(c.req.url).origin;
  const results = rows.slice(0, pageSize).map((a) => ({
    id: a.id,
    url: `${origin}/v1/articles/${a.id}/`,
    title: a.title,
    body: a.body,
    author_id: a.author_id,
    author_url: `${origin}/v1/authors/${a.author_id}/`,
    published_at: new Date(a.published_at).toISOString(),
    rating: a.rating,
  }));
  const last = rows[pageSize - 1];
  const next =
    rows.length > pageSize && last
      ? `${origin}/bare/articles/feed/?after=${Buffer.from(JSON.stringify([new Date(last.published_at).getTime(), last.id])).toString('base64url')}`
      : null;
  return c.json({ next, previous: null, results });
});

hono.all('*', createHonoHandler({ routes: demo.routes, fallthrough: false }));

const server = serve({ fetch: hono.fetch, hostname: '127.0.0.1', port: 0 }, (info) => {
  process.send?.({ port: info.port });
});

process.on('disconnect', () => {
  server.close();
  void db.destroy().finally(() => process.exit(0));
});
