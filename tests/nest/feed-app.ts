// One Nest app, as a user writes it with @pagewise/nest: a cursor feed of the engine, the same feed
// with serialized rows, a page-number list of DRF's paginator, an ApiResponse with its own status,
// and DRF's versioning schemes on Nest's routes. The Nest 12 suite serves it on Express and
// Fastify; the Nest 11 CommonJS app outside the workspace compiles this same file with tsc.
// Nothing here uses emitDecoratorMetadata: the workspace compiles it without.
import { Controller, Get, Module } from '@nestjs/common';
import { fromArray } from '@pagewise/memory-adapter';
import {
  ApiNamespace,
  ApiVersion,
  PageRequest,
  PageUrl,
  PagewiseModule,
  pageResponse,
  UseVersioning,
} from '@pagewise/nest';
import {
  AcceptHeaderVersioning,
  type ApiRequest,
  ApiResponse,
  cursorPage,
  NamespaceVersioning,
  PageNumberPagination,
  QueryParameterVersioning,
  URLPathVersioning,
} from '@pagewise/rest';

export interface Article {
  readonly id: number;
  readonly title: string;
  readonly score: number;
}

/** DRF's duplicate-heavy list as scores: ties everywhere a cursor can split them. */
const SCORES = [1, 1, 1, 1, 1, 1, 2, 3, 4, 4, 4, 4, 5, 6, 7, 7, 8, 9, 9, 9, 9, 9, 9, 9, 9];
export const ARTICLES: readonly Article[] = SCORES.map((score, i) => ({
  id: i + 1,
  title: `Article ${String(i + 1).padStart(2, '0')}`,
  score,
}));
export const CURSOR_SECRET = 'nest-feed-secret';

const articles = () => fromArray(ARTICLES, { uniqueKey: 'id' });
const numbered = new PageNumberPagination({ pageSize: 10 });

@Controller('articles')
export class ArticlesController {
  /** The engine's page as it is: rows, `{ next, previous, results }` and the `Link` header. */
  @Get('feed')
  feed(@PageUrl() url: URL) {
    return cursorPage(articles(), url, { pageSize: 7, ordering: '-score', cursorSecret: CURSOR_SECRET });
  }

  /** The same kind of page with its rows serialized. */
  @Get('titles')
  async titles(@PageUrl() url: URL) {
    const page = await cursorPage(articles(), url, { pageSize: 10, ordering: 'title' });
    return pageResponse(
      page,
      page.rows.map((article) => ({ id: article.id, title: article.title })),
    );
  }

  /** DRF's paginator, shared by every request: `{ count, next, previous, results }`. */
  @Get('list')
  list(@PageRequest() request: ApiRequest) {
    return numbered.paginate(articles(), request);
  }

  /** An `ApiResponse` keeps its own status and headers. */
  @Get('queued')
  queued() {
    return new ApiResponse({ queued: true }, { status: 202, headers: { 'retry-after': '5' } });
  }

  /** Not versioned and not Pagewise's: no request is built, so no `Host` is checked. */
  @Get('health')
  @UseVersioning(null)
  health() {
    return { ok: true };
  }

  /** The module's scheme (the query parameter) on a route that names none. */
  @Get('version')
  version(@ApiVersion() version: string | null) {
    return { version };
  }
}

@Controller(':version/articles')
@UseVersioning(
  URLPathVersioning.withOptions({
    allowedVersions: ['v0', 'v1', 'v2'],
    lifecycle: {
      v0: { deprecated: '2020-01-01', sunset: '2021-01-01' },
      v1: { deprecated: '2024-01-01', link: 'https://example.org/deprecations/v1' },
    },
  }),
)
export class PathVersionedController {
  @Get()
  feed(@PageUrl() url: URL) {
    return cursorPage(articles(), url, { pageSize: 10, ordering: '-score' });
  }

  @Get('version')
  version(@ApiVersion() version: string | null) {
    return { version };
  }
}

@Controller('media/feed')
@UseVersioning(AcceptHeaderVersioning.withOptions({ allowedVersions: ['1.0', '2.0'], defaultVersion: '1.0' }))
export class AcceptVersionedController {
  @Get()
  feed(@PageUrl() url: URL) {
    return cursorPage(articles(), url, { pageSize: 10, ordering: '-score', cursorSecret: CURSOR_SECRET });
  }

  @Get('version')
  version(@ApiVersion() version: string | null) {
    return { version };
  }
}

const namespaced = NamespaceVersioning.withOptions({ allowedVersions: ['v1', 'v2'] });

@Controller('ns/v1/articles')
@ApiNamespace('v1')
@UseVersioning(namespaced)
export class NamespaceV1Controller {
  @Get('version')
  version(@ApiVersion() version: string | null) {
    return { version };
  }
}

@Controller('ns/v9/articles')
@ApiNamespace('v9')
@UseVersioning(namespaced)
export class NamespaceV9Controller {
  @Get('version')
  version(@ApiVersion() version: string | null) {
    return { version };
  }
}

@Module({
  imports: [
    PagewiseModule.forRoot({
      allowedHosts: ['localhost', '127.0.0.1'],
      versioning: QueryParameterVersioning.withOptions({ allowedVersions: ['1', '2'], defaultVersion: '1' }),
    }),
  ],
  controllers: [
    ArticlesController,
    PathVersionedController,
    AcceptVersionedController,
    NamespaceV1Controller,
    NamespaceV9Controller,
  ],
})
export class FeedAppModule {}
