import {
  ApiError,
  type ApiRequest,
  ApiSettings,
  ApiView,
  CursorPagination,
  INTEGER_RANGES,
  integerLookup,
  LimitOffsetPagination,
  ListView,
  NotFound,
  type OpenApiVersion,
  OrderingFilter,
  PageNumberPagination,
  type RouteHandler,
  Routes,
  reverse,
} from '@pagewise/core';
import { fromKysely } from '@pagewise/kysely-adapter';
import type { Kysely } from 'kysely';
import { isConnectionError } from './database.js';
import { demoOpenApi } from './openapi.js';
import type { DemoDatabase } from './schema.js';
import { type ArticleRow, type AuthorRow, serializeArticle, serializeAuthor } from './serializers.js';
import { type VersioningName, versioningClass } from './versioning.js';

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

/** 503 for a request the database could not answer (connection lost, server restarting). */
export class ServiceUnavailable extends ApiError {
  constructor(detail = 'The database is unavailable; try again shortly.') {
    super(detail, { status: 503, code: 'service_unavailable' });
  }
}

function withDatabaseErrors(handler: RouteHandler): RouteHandler {
  return async (request) => {
    try {
      return await handler(request);
    } catch (error) {
      if (isConnectionError(error)) throw new ServiceUnavailable();
      throw error;
    }
  };
}

export interface DemoAppOptions {
  readonly db: Kysely<DemoDatabase>;
  /** @default 'path' */
  readonly versioning?: VersioningName;
  /** Signs the feed's cursors; tampered ones are then `404 Invalid cursor`. @default null */
  readonly cursorSecret?: string | null;
  /** Deepest offset the offset-based endpoints serve. @default null (no cap) */
  readonly maxOffset?: number | null;
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
  versioning = 'path',
  cursorSecret = null,
  maxOffset = null,
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
  });
  const authorRows = await db.selectFrom('authors').selectAll().orderBy('id').execute();
  const authors = new Map<number, AuthorRow>(authorRows.map((author) => [author.id, author]));
  const articleQuery = () =>
    fromKysely(db.selectFrom('articles').selectAll().orderBy('published_at', 'desc').orderBy('id', 'desc'), {
      db,
    });
  const serializer = (row: ArticleRow, { request }: { request: ApiRequest }) =>
    serializeArticle(row, request, authors);

  const listArticles = (
    paginationClass: typeof ArticlePages | typeof ArticleOffsets | typeof ArticleFeed,
    title: string,
  ) =>
    ListView.asView<ListView<ArticleRow>, ConstructorParameters<typeof ListView<ArticleRow>>[0]>({
      settings,
      title,
      queryset: articleQuery,
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

  class ArticleDetail extends ApiView {
    override settings = settings;
    override title = 'Article';
    override async get(request: ApiRequest) {
      // An id the column cannot hold is a 404 before the query: Postgres answers 2147483648 with an error.
      const id = integerLookup(request.params.id ?? '', INTEGER_RANGES.integer);
      const article =
        id === null
          ? undefined
          : await db.selectFrom('articles').selectAll().where('id', '=', Number(id)).executeTakeFirst();
      if (!article) throw new NotFound('No article with that id.');
      return serializeArticle(article, request, authors);
    }
  }

  class AuthorDetail extends ApiView {
    override settings = settings;
    override title = 'Author';
    override get(request: ApiRequest) {
      const author = authors.get(Number(request.params.id));
      if (!author) throw new NotFound('No author with that id.');
      return serializeAuthor(author, request);
    }
  }

  class Root extends ApiView {
    override settings = settings;
    override title = 'Pagewise demo API';
    override get(request: ApiRequest) {
      const link = (name: string) => reverse(name, { request });
      return {
        articles: link('article-list'),
        articles_offset: link('article-offset-list'),
        articles_feed: link('article-feed'),
        authors: link('author-list'),
        openapi: request.buildAbsoluteUri('/openapi.json'),
      };
    }
  }

  const paginators = { pages: new Pages(), offsets: new Offsets(), feed: new Feed() };
  const openapi = (request: ApiRequest) => {
    const asked = request.queryParams.get('openapi');
    if (asked !== null && asked !== '3.0' && asked !== '3.1')
      throw new NotFound('openapi must be 3.0 or 3.1.');
    return demoOpenApi(versioning, paginators, (asked ?? '3.1') as OpenApiVersion);
  };

  const declare = (routes: Routes, prefix: string) =>
    routes
      .add(`${prefix}/`, 'api-root', withDatabaseErrors(Root.asView()))
      .add(`${prefix}/articles/`, 'article-list', withDatabaseErrors(listArticles(Pages, 'Articles')))
      .add(
        `${prefix}/articles/offset/`,
        'article-offset-list',
        withDatabaseErrors(listArticles(Offsets, 'Articles by offset')),
      )
      .add(`${prefix}/articles/feed/`, 'article-feed', withDatabaseErrors(listArticles(Feed, 'Article feed')))
      .add(`${prefix}/articles/:id(\\d+)/`, 'article-detail', withDatabaseErrors(ArticleDetail.asView()))
      .add(
        `${prefix}/authors/`,
        'author-list',
        withDatabaseErrors(
          ListView.asView<ListView<AuthorRow>, ConstructorParameters<typeof ListView<AuthorRow>>[0]>({
            settings,
            title: 'Authors',
            paginationClass: null,
            queryset: () => fromKysely(db.selectFrom('authors').selectAll().orderBy('id'), { db }),
            serializer: (row, { request }) => serializeAuthor(row, request),
          }),
        ),
      )
      .add(`${prefix}/authors/:id(\\d+)/`, 'author-detail', withDatabaseErrors(AuthorDetail.asView()));

  const routes = new Routes().add('/openapi.json', 'openapi', openapi);
  if (versioning === 'path') declare(routes, '/:version');
  else if (versioning === 'namespace') {
    routes.include('/v1', 'v1', (v1) => declare(v1, '')).include('/v2', 'v2', (v2) => declare(v2, ''));
  } else declare(routes, '');
  return { routes, settings, versioning };
}
