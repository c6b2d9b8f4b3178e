import { fromKysely } from '@pagewise/kysely-adapter';
import type { Hono } from 'hono';
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
 * table: the streamed exports (`/v1/articles/export.ndjson`, `.csv`) and `/graphql`. Mounted on
 * Hono before the catch-all Pagewise handler.
 */
export function mountDemoWebRoutes(
  hono: Hono,
  { db, versioning, cursorSecret = null }: DemoWebRouteOptions,
): void {
  const query = () => fromKysely(db.selectFrom('articles').selectAll(), { db });
  const prefix = versioning === 'path' || versioning === 'namespace' ? '/:version{v1|v2}' : '';
  hono.get(`${prefix}/articles/export.ndjson`, () => articleExport('ndjson', { query }));
  hono.get(`${prefix}/articles/export.csv`, () => articleExport('csv', { query }));
  const graphql = graphqlHandler(demoSchema({ query, cursorSecret }));
  hono.on(['GET', 'POST'], '/graphql', (c) => graphql(c.req.raw));
}
