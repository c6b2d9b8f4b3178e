// The Express 5 + SQLite feed written with kysely-paginate 0.2.0 (on the kysely 0.24 it requires)
// instead of Pagewise, for comparison: the same rows, links both ways, Link header and 404s.
import type { AddressInfo } from 'node:net';
import SQLite from 'better-sqlite3';
import express from 'express';
import { Kysely, SqliteDialect } from 'kysely';
import { executeWithCursorPagination } from 'kysely-paginate';

interface Database {
  articles: { id: number; title: string; published_at: string };
}
const db = new Kysely<Database>({
  dialect: new SqliteDialect({ database: new SQLite(process.env.DATABASE_URL ?? 'articles.db') }),
});
const PAGE_SIZE = 7;

const app = express();
app.get('/articles/', async (req, res) => {
  // Behind a proxy, pin the origin instead of trusting Host (docs/security.md).
  const url = new URL(`${req.protocol}://${req.get('host')}${req.originalUrl}`);
  const after = url.searchParams.get('after');
  const before = url.searchParams.get('before');
  // Glue: kysely-paginate throws plain Errors for a bad token and leaves the values unchecked.
  let result: Awaited<ReturnType<typeof page>>;
  try {
    result = await page(after, before);
  } catch {
    res.status(404).json({ detail: 'Invalid cursor' });
    return;
  }

  // Glue: the links, the body and the Link header are the app's to build.
  const link = (param: 'after' | 'before', cursor: string | undefined) => {
    if (cursor === undefined) return null;
    const target = new URL(url);
    target.searchParams.delete('after');
    target.searchParams.delete('before');
    target.searchParams.set(param, cursor);
    return target.href;
  };
  // It knows what lies ahead in the direction it read only: behind is known from the request.
  const next = before !== null || result.hasNextPage ? link('after', result.endCursor) : null;
  const previous = after !== null || result.hasPrevPage ? link('before', result.startCursor) : null;
  const links = [next && `<${next}>; rel="next"`, previous && `<${previous}>; rel="prev"`].filter(Boolean);
  if (links.length > 0) res.set('link', links.join(', '));
  res.json({ next, previous, results: result.rows });
});

function page(after: string | null, before: string | null) {
  return executeWithCursorPagination(db.selectFrom('articles').selectAll(), {
    perPage: PAGE_SIZE,
    ...(after === null ? {} : { after }),
    ...(before === null ? {} : { before }),
    fields: [
      { expression: 'published_at', direction: 'desc' },
      { expression: 'id', direction: 'desc' },
    ],
    // Glue: the token's values are text; each must be checked and parsed back to its column's type.
    parseCursor: (cursor) => {
      if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(cursor.published_at)) throw new Error('bad date');
      if (!/^\d+$/.test(cursor.id)) throw new Error('bad id');
      return { published_at: cursor.published_at, id: Number(cursor.id) };
    },
  });
}

const server = app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}/articles/`);
});
