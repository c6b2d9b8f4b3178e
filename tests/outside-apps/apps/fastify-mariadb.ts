// Fastify 5 + MariaDB: the same feed in a user's own Fastify route.
import { type CursorPageOptions, cursorPage, isApiError } from '@pagewise/core';
import { fromKysely } from '@pagewise/kysely-adapter';
import Fastify from 'fastify';
import { Kysely, MysqlDialect } from 'kysely';
import { createPool } from 'mysql2';

interface Database {
  articles: { id: number; title: string; published_at: Date };
}
const db = new Kysely<Database>({
  dialect: new MysqlDialect({
    pool: createPool({ uri: process.env.DATABASE_URL ?? 'mysql://localhost/app' }),
  }),
});
const feed: CursorPageOptions = { pageSize: 7, ordering: '-published_at', pageSizeQueryParam: 'page_size' };

const app = Fastify();
// Glue: Fastify answers a Pagewise error with its status but its own body; this sends DRF's.
app.setErrorHandler((error, _request, reply) =>
  isApiError(error) ? reply.code(error.status).send(error.toJSON()) : reply.send(error),
);

app.get('/articles/', async (request, reply) => {
  // Behind a proxy, pin the origin instead of trusting Host (docs/security.md).
  const url = `${request.protocol}://${request.host}${request.url}`;
  const page = await cursorPage(fromKysely(db.selectFrom('articles').selectAll(), { db }), url, feed);
  return reply.headers(page.headers).send(page.body(page.rows));
});

const address = await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 3000) });
console.log(`${address}/articles/`);
