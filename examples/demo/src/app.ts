import { timingSafeEqual } from 'node:crypto';
import { fromDrizzle } from '@pagewise/drizzle-adapter';
import { fromKysely } from '@pagewise/kysely-adapter';
import {
  ApiError,
  type ApiRequest,
  ApiResponse,
  ApiSettings,
  apiView,
  buildOpenApiDocument,
  CursorPagination,
  DefaultRouter,
  describedLike,
  type JsonSchema,
  jsonRenderer,
  LimitOffsetPagination,
  ListView,
  ModelViewSet,
  NotFound,
  type OpenApiVersion,
  type OrderedQuery,
  OrderingFilter,
  PageNumberPagination,
  PermissionDenied,
  ReadOnlyModelViewSet,
  type RouteHandler,
  Routes,
  ValidationError,
  type WriteValues,
} from '@pagewise/rest';
import { desc } from 'drizzle-orm';
import type { Kysely } from 'kysely';
import type { DemoDrizzle } from './database.js';
import {
  isDatabaseUnavailable,
  logDatabaseUnavailable,
  RETRY_AFTER_SECONDS,
  ServiceUnavailable,
} from './database-errors.js';
import { pgArticles, sqliteArticles } from './drizzle-schema.js';
import type { DemoDatabase } from './schema.js';
import {
  Article,
  type ArticleRow,
  Author,
  type AuthorRow,
  serializeArticle,
  serializeAuthor,
} from './serializers.js';
import { DEMO_LIFECYCLE, type VersioningName, versioningClass } from './versioning.js';
import { DATED_VERSIONS, DatedVersioning, PATH_VERSIONS, pinnedVersion } from './versions.js';

/** 20 per page, `page_size` up to 100, `page=last`. */
export class ArticlePages extends PageNumberPagination {
  override pageSize = 20;
  override pageSizeQueryParam = 'page_size';
  override maxPageSize = 100;
}

/** `limit` defaults to 20, at most 100. */
export class ArticleOffsets extends LimitOffsetPagination {
  override defaultLimit = 20;
  override maxLimit = 100;
}

/** Newest first behind cursors; `page_size` up to 100. */
export class ArticleFeed extends CursorPagination {
  override pageSize = 20;
  override ordering = ['-published_at', '-id'];
  override pageSizeQueryParam = 'page_size';
  override maxPageSize = 100;
}

/** 409 for a write the data's relations refuse. */
export class Conflict extends ApiError {
  constructor(detail: string) {
    super(detail, { status: 409, code: 'conflict' });
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether the request carries `Authorization: Token <token>`, compared in constant time. */
export function hasWriteToken(request: ApiRequest, token: string | null): boolean {
  const match = /^Token\s+(\S+)$/.exec(request.headers.get('authorization') ?? '');
  if (token === null || token === '' || !match) return false;
  const given = Buffer.from(match[1]!);
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/** DRF's `CharField` / `EmailField` checks for an author's fields, with its messages. */
export function validateAuthor(values: WriteValues): WriteValues {
  const errors: Record<string, string[]> = {};
  const text = (field: string, max: number): string | undefined => {
    const value = values[field];
    if (value === undefined) return undefined;
    if (value === null) errors[field] = ['This field may not be null.'];
    else if (typeof value !== 'string') errors[field] = ['Not a valid string.'];
    else if (value.trim() === '') errors[field] = ['This field may not be blank.'];
    else if (value.length > max) errors[field] = [`Ensure this field has no more than ${max} characters.`];
    else return value.trim();
    return undefined;
  };
  const name = text('name', 100);
  const email = text('email', 254);
  if (email !== undefined && !EMAIL.test(email)) errors.email = ['Enter a valid email address.'];
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return { ...(name !== undefined ? { name } : {}), ...(email !== undefined ? { email } : {}) };
}

/**
 * `handler`, answering 503 `{ "detail": ... }` with `Retry-After` when the database cannot take
 * the request (the detail is logged, never sent).
 */
function withDatabaseErrors(handler: RouteHandler): RouteHandler {
  const guarded: RouteHandler = async (request) => {
    try {
      return await handler(request);
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      logDatabaseUnavailable(`${request.method} ${request.url.pathname}`, error);
      const unavailable = new ServiceUnavailable();
      return new ApiResponse(unavailable.toJSON(), {
        status: unavailable.status,
        headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
      });
    }
  };
  // The OpenAPI documents describe the view the guard wraps.
  return describedLike(guarded, handler);
}

const WRITE_METHODS = new Set(['post', 'put', 'patch', 'delete']);

/**
 * The demo's OpenAPI document of `version` (`null`: every version), generated from its route
 * table. `origin` is the request's (the host scheme's servers name the version's host).
 */
export function demoOpenApi(
  routes: Routes,
  {
    version,
    openapi,
    origin,
    versioning,
  }: {
    version: string | null;
    openapi: OpenApiVersion;
    origin: URL;
    /** `dated`: the /dated/ table, versioned by the `Api-Version` header. */
    versioning: VersioningName | 'dated';
  },
): JsonSchema {
  const server =
    versioning === 'host'
      ? `${origin.protocol}//{version}.localhost${origin.port ? `:${origin.port}` : ''}`
      : origin.origin;
  return buildOpenApiDocument(routes, {
    version,
    openapi,
    title: 'Pagewise demo API',
    description:
      versioning === 'dated'
        ? 'Articles and authors, paged three ways. Versioning: the Api-Version header (dated versions).'
        : `Articles and authors, paged three ways. Versioning scheme: ${versioning}.`,
    infoVersion: version ?? '1.0.0',
    license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
    servers: [{ url: server, description: 'This server' }],
    securitySchemes: {
      tokenAuth: {
        type: 'apiKey',
        in: 'header',
        name: 'Authorization',
        description: 'Author writes: `Authorization: Token <DEMO_WRITE_TOKEN>`.',
      },
    },
    security: [],
    // Tagged by the segment after /dated/, as the path versions' operations are after /v1/.
    ...(versioning === 'dated'
      ? { operationTags: ({ path }: { path: string }) => [path.split('/')[2] || 'api'] }
      : {}),
    operationSecurity: ({ method }) => (WRITE_METHODS.has(method) ? [{ tokenAuth: [] }] : []),
    tags: [
      { name: 'api', description: 'The API root: links to every list.' },
      { name: 'articles', description: 'Articles, paged by number, by offset and behind cursors.' },
      { name: 'authors', description: 'Authors, unpaginated; writable with a token.' },
    ],
  });
}

export interface DemoAppOptions {
  readonly db: Kysely<DemoDatabase>;
  /** The same database through Drizzle: the articles are then paged by `fromDrizzle`. @default undefined */
  readonly drizzle?: DemoDrizzle | undefined;
  /** @default 'path' */
  readonly versioning?: VersioningName;
  /** Signs the feed's cursors; tampered ones are then `404 Invalid cursor`. @default null */
  readonly cursorSecret?: string | null;
  /** Deepest offset the offset-based endpoints serve. @default null (no cap) */
  readonly maxOffset?: number | null;
  /**
   * The token author writes need (`Authorization: Token <token>`); `null` makes every write 403.
   * @default null
   */
  readonly writeToken?: string | null;
  /** The clock v1's deprecation and sunset are read against. @default the system clock */
  readonly now?: () => Date;
}

/**
 * The articles through Drizzle (`ORM=drizzle`), newest first as on Kysely: the same rows (the
 * schema's keys are the SQL names), orderings and cursor tokens.
 */
function drizzleArticles(drizzle: DemoDrizzle): OrderedQuery<ArticleRow> {
  if (drizzle.dialect === 'sqlite') {
    const { db } = drizzle;
    const builder = db
      .select()
      .from(sqliteArticles)
      .orderBy(desc(sqliteArticles.published_at), desc(sqliteArticles.id));
    return fromDrizzle(builder, { db }) as OrderedQuery<ArticleRow>;
  }
  const { db } = drizzle;
  const builder = db.select().from(pgArticles).orderBy(desc(pgArticles.published_at), desc(pgArticles.id));
  return fromDrizzle(builder, { db }) as OrderedQuery<ArticleRow>;
}

/** The demo API: its route table and settings, ready for any binding. */
export interface DemoApp {
  readonly routes: Routes;
  readonly settings: ApiSettings;
  readonly versioning: VersioningName;
}

/**
 * Builds the demo API over `db`. The same views serve every versioning scheme; only the route
 * table's shape (a `:version` segment, `v1`/`v2` namespaces, or no version in the path) changes.
 */
export async function createDemoApp({
  db,
  drizzle,
  versioning = 'path',
  cursorSecret = null,
  maxOffset = null,
  writeToken = null,
  now,
}: DemoAppOptions): Promise<DemoApp> {
  const Pages = class extends ArticlePages {
    override maxOffset = maxOffset;
  };
  const Offsets = class extends ArticleOffsets {
    override maxOffset = maxOffset;
  };
  const Feed = class extends ArticleFeed {
    override cursorSecret = cursorSecret;
  };
  const settings = new ApiSettings({
    defaultVersioningClass: versioningClass(versioning),
    defaultVersion: versioning === 'path' || versioning === 'namespace' ? null : 'v1',
    allowedVersions: ['v1', 'v2'],
    versionBundle: PATH_VERSIONS,
    lifecycle: DEMO_LIFECYCLE,
    ...(now ? { now } : {}),
  });
  // The same views at /dated/: `Api-Version: <date>`, else the version the API key was created on.
  const datedSettings = new ApiSettings({
    defaultVersioningClass: DatedVersioning,
    versionBundle: DATED_VERSIONS,
    defaultVersion: pinnedVersion,
    ...(now ? { now } : {}),
  });
  const authorRows = await db.selectFrom('authors').selectAll().orderBy('id').execute();
  const authors = new Map<number, AuthorRow>(authorRows.map((author) => [author.id, author]));
  // One query for every request, as DRF's class-level `queryset`: a query is a value (filters and
  // pages derive new ones), so nothing is rebuilt or recognised per request.
  const articleQuery =
    drizzle === undefined
      ? fromKysely(
          db.selectFrom('articles').selectAll().orderBy('published_at', 'desc').orderBy('id', 'desc'),
          {
            db,
          },
        )
      : drizzleArticles(drizzle);
  const serializer = (row: ArticleRow, { request }: { request: ApiRequest }) =>
    serializeArticle(row, request, authors);
  const ROOT_SCHEMA = {
    type: 'object',
    description: 'Each list, by name, to its absolute URL.',
    additionalProperties: { type: 'string', format: 'uri' },
  };

  const listArticles = (
    settings: ApiSettings,
    paginationClass: typeof ArticlePages | typeof ArticleOffsets | typeof ArticleFeed,
    title: string,
  ) =>
    ListView.asView({
      settings,
      title,
      queryset: articleQuery,
      schema: Article,
      serializer,
      paginationClass,
      ...(paginationClass === Feed
        ? {
            filterBackends: [
              new OrderingFilter({ orderingFields: ['published_at', 'rating', 'title', 'id'] }),
            ],
            ordering: ['-published_at', '-id'],
          }
        : {}),
    });

  // One router per mount: the same view classes, under the path versions' settings or the dated ones.
  const apiRouter = (settings: ApiSettings) => {
    // Named as DRF names them, "Article List" and "Article Instance"; the description is the docstring.
    class ArticleViewSet extends ReadOnlyModelViewSet<ArticleRow, typeof Article> {
      static override description = `
      Articles, newest first, in numbered pages of 20 (page_size up to 100, page=last).
    `;
      override settings = settings;
      override schema = Article;
      override queryset = articleQuery;
      override serializer = serializer;
      override paginationClass = Pages;
    }

    const refreshAuthors = async () => {
      const rows = await db.selectFrom('authors').selectAll().orderBy('id').execute();
      authors.clear();
      for (const author of rows) authors.set(author.id, author);
    };

    /** Authors, writable with `Authorization: Token <DEMO_WRITE_TOKEN>`; reads are public. */
    class AuthorViewSet extends ModelViewSet<AuthorRow, typeof Author> {
      static override description = `
      Authors, unpaginated. Reads are public; writes need "Authorization: Token <token>".
    `;
      override settings = settings;
      override schema = Author;
      override paginationClass = null;
      override queryset = () => fromKysely(db.selectFrom('authors').selectAll().orderBy('id'), { db });
      override serializer = (row: AuthorRow, { request }: { request: ApiRequest }) =>
        serializeAuthor(row, request);
      override writableFields = ['name', 'email'];
      override validate = validateAuthor;

      // DRF's check_permissions: OPTIONS asks it too, so it lists the writes only to a token holder.
      override checkPermissions(request: ApiRequest): void {
        if (!SAFE_METHODS.has(request.method) && !hasWriteToken(request, writeToken))
          throw new PermissionDenied();
      }

      override async create(request: ApiRequest) {
        const response = await super.create(request);
        await refreshAuthors();
        return response;
      }

      override async update(request: ApiRequest, partial = false) {
        const response = await super.update(request, partial);
        await refreshAuthors();
        return response;
      }

      override async destroy(request: ApiRequest) {
        const author = await this.getObject(request);
        const used = await db
          .selectFrom('articles')
          .select('id')
          .where('author_id', '=', author.id)
          .limit(1)
          .executeTakeFirst();
        if (used) throw new Conflict('This author has articles; delete them first.');
        const response = await super.destroy(request);
        await refreshAuthors();
        return response;
      }
    }

    return new DefaultRouter({
      settings,
      title: 'Pagewise demo API',
      schema: ROOT_SCHEMA,
      rootLinks: {
        articles_offset: 'article-offset-list',
        articles_feed: 'article-feed',
        openapi: 'openapi',
      },
    })
      .register('articles', ArticleViewSet, { basename: 'article' })
      .register('authors', AuthorViewSet, { basename: 'author' });
  };

  // One document per version (and one of every version at /openapi.json), per dialect and origin.
  const documents = new Map<string, JsonSchema>();
  // The tables the documents describe (made below, before any request): the path versions' alone,
  // the dated versions' alone (a document of v1 knows no dated version, and the other way round).
  let documented = new Routes();
  let datedDocumented = new Routes();
  /**
   * The view answering the document of the version `versionOf` picks for a request, of `table`
   * described under `scheme`, in the dialect `?openapi=` asks (3.1 by default).
   */
  const documentView = (
    table: () => Routes,
    scheme: VersioningName | 'dated',
    versionOf: (request: ApiRequest) => string | null,
  ) =>
    apiView(
      (request: ApiRequest) => {
        const asked = request.queryParams.get('openapi');
        if (asked !== null && asked !== '3.0' && asked !== '3.1')
          throw new NotFound('openapi must be 3.0 or 3.1.');
        const version = versionOf(request);
        const key = `${scheme}|${version}|${asked}|${request.url.origin}`;
        let document = documents.get(key);
        if (document === undefined) {
          document = demoOpenApi(table(), {
            version,
            openapi: (asked ?? '3.1') as OpenApiVersion,
            origin: request.url,
            versioning: scheme,
          });
          if (documents.size < 64) documents.set(key, document);
        }
        return document;
      },
      { renderers: [jsonRenderer], versioningClass: null, title: 'OpenAPI document' },
    );
  const openapiView = documentView(
    () => documented,
    versioning,
    (request) => request.params.version ?? null,
  );
  // /dated/openapi.json: the document of the version `Api-Version` names (a date between two: the
  // earlier one), else of the API key's, else of the newest.
  const datedOpenapiView = documentView(
    () => datedDocumented,
    'dated',
    (request) => {
      const named = request.headers.get('api-version') ?? pinnedVersion(request);
      const version = named === null ? DATED_VERSIONS.newest : DATED_VERSIONS.resolve(named);
      if (version === null) throw new NotFound('Invalid version in "Api-Version" header.');
      return version;
    },
  );

  // The offset and feed lists come first: the articles detail route would take "offset" for an id.
  const declare = (routes: Routes, prefix: string, settings: ApiSettings) => {
    const router = apiRouter(settings);
    routes
      .add(
        `${prefix}/articles/offset/`,
        'article-offset-list',
        withDatabaseErrors(listArticles(settings, Offsets, 'Articles by offset')),
      )
      .add(
        `${prefix}/articles/feed/`,
        'article-feed',
        withDatabaseErrors(listArticles(settings, Feed, 'Article feed')),
      );
    for (const route of router.routes.routes) {
      routes.add(`${prefix}${route.pattern}`, route.name, withDatabaseErrors(route.handler!));
    }
  };

  // The path versions' table, as the /openapi.json documents describe it.
  const pathRoutes = (table: Routes) => {
    table
      .add('/openapi.json', 'openapi', openapiView)
      .add('/:version(v1|v2)/openapi.json', 'openapi-version', openapiView);
    if (versioning === 'path') declare(table, '/:version', settings);
    else if (versioning === 'namespace') {
      table
        .include('/v1', 'v1', (v1) => declare(v1, '', settings))
        .include('/v2', 'v2', (v2) => declare(v2, '', settings));
    } else declare(table, '', settings);
    return table;
  };
  // The dated versions' table, in the `dated` namespace (DatedVersioning reverses within it). It
  // comes first: `/:version/` would take `dated` for a version.
  const datedRoutes = (table: Routes, withDocument: boolean) =>
    table.include('/dated', 'dated', (dated) => {
      if (withDocument) dated.add('/openapi.json', 'openapi', datedOpenapiView);
      declare(dated, '', datedSettings);
    });
  documented = pathRoutes(new Routes());
  datedDocumented = datedRoutes(new Routes(), false);
  const routes = pathRoutes(datedRoutes(new Routes(), true));
  return { routes, settings, versioning };
}
