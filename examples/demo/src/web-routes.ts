import { fromKysely } from '@pagewise/kysely-adapter';
import type { Context, Hono } from 'hono';
import type { Kysely } from 'kysely';
import { articleExport } from './exports.js';
import { demoSchema, graphqlHandler } from './graphql.js';
import type { DemoDatabase } from './schema.js';
import type { VersioningName } from './versioning.js';

/** What the web routes read. */
export interface DemoWebRouteOptions {
  readonly db: Kysely<DemoDatabase>;
  readonly versioning: VersioningName;
  readonly cursorSecret?: string | null;
}

/**
 * The demo's routes that answer with a Web `Response` of their own, beside the Pagewise route
 * table: the streamed exports (`/{v1|v2}/articles/export.ndjson`, `.csv`, in the version's fields) and `/graphql`. Mounted on
 * Hono before the catch-all Pagewise handler.
 */
export function mountDemoWebRoutes(
  hono: Hono,
  { db, versioning, cursorSecret = null }: DemoWebRouteOptions,
): void {
  const query = () => fromKysely(db.selectFrom('articles').selectAll(), { db });
  const prefix = versioning === 'path' || versioning === 'namespace' ? '/:version{v1|v2}' : '';
  const authors = async () => {
    const rows = await db.selectFrom('authors').selectAll().execute();
    return new Map(rows.map((author) => [author.id, author]));
  };
  // Path schemes name the version in the path; the others export v1's fields.
  const version = (c: Context) => (prefix === '' ? 'v1' : (c.req.param('version') ?? 'v1'));
  for (const format of ['ndjson', 'csv'] as const) {
    hono.get(`${prefix}/articles/export.${format}`, (c) =>
      articleExport(format, { query, authors, version: version(c) }),
    );
  }
  const graphql = graphqlHandler(demoSchema({ query, cursorSecret }));
  hono.on(['GET', 'POST'], '/graphql', (c) => graphql(c.req.raw));
}
