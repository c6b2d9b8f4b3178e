// The route table every HTTP suite serves: DRF's versioning and reverse fixtures
// (tests/test_versioning.py) plus paged, ordered and hyperlinked article lists.

import { fromArray } from '@pagewise/memory-adapter';
import {
  AcceptHeaderVersioning,
  type ApiRequest,
  ApiResponse,
  ApiSettings,
  ApiView,
  apiView,
  BaseVersioning,
  CursorPagination,
  HostNameVersioning,
  LimitOffsetPagination,
  ListView,
  NamespaceVersioning,
  OrderingFilter,
  PageNumberPagination,
  QueryParameterVersioning,
  Routes,
  reverse,
  URLPathVersioning,
  type VersioningClass,
} from '@pagewise/rest';

export interface Article {
  readonly id: number;
  readonly title: string;
  readonly published: string;
  readonly secret: string;
}

export const ARTICLES: readonly Article[] = [
  { id: 1, title: 'Mango', published: '2024-01-03', secret: 'e' },
  { id: 2, title: 'Apple', published: '2024-01-01', secret: 'a' },
  { id: 3, title: 'Kiwi', published: '2024-01-05', secret: 'g' },
  { id: 4, title: 'Banana', published: '2024-01-02', secret: 'b' },
  { id: 5, title: 'Cherry', published: '2024-01-04', secret: 'f' },
  { id: 6, title: 'Date <b>&</b>', published: '2024-01-06', secret: 'c' },
  { id: 7, title: 'Fig', published: '2024-01-07', secret: 'd' },
];

class RequestVersionView extends ApiView {
  override get(request: ApiRequest) {
    return { version: request.version };
  }
}

class ReverseView extends ApiView {
  override get(request: ApiRequest) {
    return { url: reverse('another', { request }) };
  }
}

/** DRF's `AllowedVersionsView` family: the scheme with preset allowed/default versions. */
function versionView(
  versioningClass: VersioningClass | null,
  preset?: { allowedVersions?: Array<string | null>; defaultVersion?: string },
) {
  const scheme =
    versioningClass && preset
      ? (versioningClass as unknown as typeof BaseVersioning).withOptions(preset)
      : versioningClass;
  return RequestVersionView.asView({ versioningClass: scheme as VersioningClass | null });
}

/** The custom scheme of the issue: `X-API-Version`, falling back to the default. */
export class HeaderVersioning extends BaseVersioning {
  override readonly varyHeaders = ['X-API-Version'];
  override determineVersion(request: ApiRequest): string | null {
    return request.headers.get('x-api-version') ?? this.defaultVersion;
  }
}

/** A view that already varies on `Origin`, also when it answers an error. */
class OriginAwareView extends RequestVersionView {
  override handleException(error: unknown): ApiResponse {
    const response = super.handleException(error);
    response.headers.set('vary', 'Origin');
    return response;
  }
}

class ThreePerPage extends PageNumberPagination {
  override pageSize = 3;
  override pageSizeQueryParam = 'page_size';
}

class ThreeByCursor extends CursorPagination {
  override pageSize = 3;
  override ordering = '-published';
}

class TwoByOffset extends LimitOffsetPagination {
  override defaultLimit = 2;
}

const articles = () => fromArray(ARTICLES);

function serializeArticle(article: Article, request: ApiRequest) {
  const url = reverse('article-detail', { kwargs: { pk: article.id }, request });
  // v1 clients get the old shape; the serializer branches on the negotiated version.
  if (request.version === 'v1') return { id: article.id, title: article.title, url };
  return { id: article.id, title: article.title, published: article.published, url };
}

export interface AppHooks {
  readonly onBoom?: () => void;
}

export function buildRoutes(): Routes {
  const included = (namespace: string) => (routes: Routes) => {
    routes
      .add('/namespaced/', 'another')
      .add('/example/:pk(\\d+)/', 'example-detail')
      .add('/namespaced/:pk(\\d+)/', 'namespaced')
      .add('/version/namespace/', 'ns-version', versionView(NamespaceVersioning))
      .add('/reverse/namespace/', 'ns-reverse', ReverseView.asView({ versioningClass: NamespaceVersioning }))
      .add(
        '/articles/',
        'ns-article-list',
        ListView.asView({
          queryset: articles,
          versioningClass: NamespaceVersioning,
          paginationClass: null,
          serializer: (article: Article, { request }) => ({
            id: article.id,
            url: reverse('namespaced', { kwargs: { pk: article.id }, request }),
            elsewhere: reverse('non-api-view', { kwargs: { pk: article.id }, request }),
          }),
        }),
      )
      .include('/nested', 'nested-namespace', (nested) =>
        nested
          .add('/namespaced/:pk(\\d+)/', 'nested')
          .add('/version/', 'nested-version', versionView(NamespaceVersioning))
          .add(
            '/version/allowed/',
            'nested-version-allowed',
            versionView(NamespaceVersioning, { allowedVersions: ['nested-namespace'] }),
          ),
      );
    if (namespace === 'v1') routes.add('/only-in-v1/', 'only-in-v1');
  };

  return (
    new Routes()
      .include('/v1', 'v1', included('v1'))
      .include('/v2', 'v2', included('v2'))
      .include('/v3', 'v3', (v3) =>
        v3.add(
          '/invalid/namespace/',
          'v3-invalid',
          versionView(NamespaceVersioning, { allowedVersions: ['v1', 'v2'] }),
        ),
      )
      .add('/another/', 'another')
      .add('/:version([v1|v2]+)/another/', 'another')
      .add('/non-api/:pk(\\d+)/', 'non-api-view')
      // TestRequestVersion
      .add('/version/unversioned/', 'v-unversioned', versionView(null))
      .add('/version/query/', 'v-query', versionView(QueryParameterVersioning))
      .add('/version/host/', 'v-host', versionView(HostNameVersioning))
      .add('/version/accept/', 'v-accept', versionView(AcceptHeaderVersioning))
      .add('/version/url-path/', 'v-url-path', versionView(URLPathVersioning))
      .add('/version/url-path/:version/', 'v-url-path', versionView(URLPathVersioning))
      .add('/version/namespace/', 'v-namespace', versionView(NamespaceVersioning))
      .add(
        '/version/custom-header/',
        'v-custom',
        versionView(HeaderVersioning.withOptions({ defaultVersion: 'v1' })),
      )
      .add(
        '/version/accept-vary-origin/',
        'v-accept-origin',
        OriginAwareView.asView({
          versioningClass: AcceptHeaderVersioning.withOptions({
            allowedVersions: ['1', '2'],
            defaultVersion: '1',
          }),
        }),
      )
      .add(
        '/version/accept-keeps-vary/',
        'v-accept-keeps-vary',
        apiView(
          (request) => new ApiResponse({ version: request.version }, { headers: { vary: 'Cookie, accept' } }),
          { versioningClass: AcceptHeaderVersioning },
        ),
      )
      .add('/raw/accept/', 'raw-accept', (request: ApiRequest) => {
        // A plain handler (no view) choosing a version by itself.
        const scheme = new AcceptHeaderVersioning({ allowedVersions: ['1'], defaultVersion: '1' });
        request.versioningScheme = scheme;
        request.version = scheme.determineVersion(request);
        return { version: request.version };
      })
      // TestURLReversing
      .add('/reverse/unversioned/', 'r-unversioned', ReverseView.asView({ versioningClass: null }))
      .add('/reverse/query/', 'r-query', ReverseView.asView({ versioningClass: QueryParameterVersioning }))
      .add('/reverse/host/', 'r-host', ReverseView.asView({ versioningClass: HostNameVersioning }))
      .add('/reverse/url-path/', 'r-url-path', ReverseView.asView({ versioningClass: URLPathVersioning }))
      .add(
        '/reverse/url-path/:version/',
        'r-url-path',
        ReverseView.asView({ versioningClass: URLPathVersioning }),
      )
      .add('/reverse/namespace/', 'r-namespace', ReverseView.asView({ versioningClass: NamespaceVersioning }))
      .add(
        '/reverse/format/',
        'r-format',
        apiView((request) => ({
          plain: reverse('another', { request }),
          suffixed: reverse('another', { request, format: 'json' }),
        })),
      )
      .add('/another.:format/', 'another')
      // TestInvalidVersion (allowed: v1, v2)
      .add(
        '/invalid/query/',
        'i-query',
        versionView(QueryParameterVersioning, { allowedVersions: ['v1', 'v2'] }),
      )
      .add('/invalid/host/', 'i-host', versionView(HostNameVersioning, { allowedVersions: ['v1', 'v2'] }))
      .add(
        '/invalid/accept/',
        'i-accept',
        versionView(AcceptHeaderVersioning, { allowedVersions: ['v1', 'v2'] }),
      )
      .add(
        '/invalid/url-path/:version/',
        'i-url-path',
        versionView(URLPathVersioning, { allowedVersions: ['v1', 'v2'] }),
      )
      // TestAllowedAndDefaultVersion
      .add('/allowed/accept/', 'a-1', versionView(AcceptHeaderVersioning, { allowedVersions: ['v1', 'v2'] }))
      .add(
        '/allowed-default/accept/',
        'a-2',
        versionView(AcceptHeaderVersioning, { allowedVersions: ['v1', 'v2'], defaultVersion: 'v2' }),
      )
      .add(
        '/allowed-none/accept/',
        'a-3',
        versionView(AcceptHeaderVersioning, { allowedVersions: ['v1', 'v2', null] }),
      )
      .add(
        '/allowed-none-default/accept/',
        'a-4',
        versionView(AcceptHeaderVersioning, { allowedVersions: ['v1', 'v2', null], defaultVersion: 'v2' }),
      )
      // Article lists
      .add(
        '/api/:version(v1|v2)/articles/',
        'article-list',
        ListView.asView({
          queryset: articles,
          paginationClass: ThreePerPage,
          versioningClass: URLPathVersioning,
          serializer: (article: Article, { request }) => serializeArticle(article, request),
        }),
      )
      .add(
        '/api/:version(v1|v2)/articles/:pk(\\d+)/',
        'article-detail',
        apiView(
          (request) => {
            const article = ARTICLES.find((a) => String(a.id) === request.params.pk);
            return article
              ? serializeArticle(article, request)
              : new ApiResponse({ detail: 'Not found.' }, { status: 404 });
          },
          { versioningClass: URLPathVersioning },
        ),
      )
      .add(
        '/api/cursor/articles/',
        'cursor-list',
        ListView.asView({
          queryset: articles,
          paginationClass: ThreeByCursor,
          versioningClass: null,
          filterBackends: [new OrderingFilter({ orderingFields: ['title', 'published'] })],
          serializer: (article: Article) => article.title,
        }),
      )
      .add(
        '/api/offset/articles/',
        'offset-list',
        ListView.asView({
          queryset: articles,
          paginationClass: TwoByOffset,
          versioningClass: null,
          ordering: 'id',
          orderingFields: ['title'],
          filterBackends: [new OrderingFilter()],
          serializer: (article: Article) => article.title,
        }),
      )
      .add(
        '/api/all/articles/',
        'all-list',
        ListView.asView({
          queryset: articles,
          paginationClass: null,
          serializer: (article: Article) => article.id,
        }),
      )
      .add(
        '/api/settings/articles/',
        'settings-list',
        ListView.asView({
          queryset: articles,
          settings: new ApiSettings({
            defaultPaginationClass: PageNumberPagination,
            pageSize: 2,
            defaultVersioningClass: QueryParameterVersioning,
            allowedVersions: ['1', '2'],
            defaultVersion: '1',
          }),
          serializer: (article: Article, { request }) => ({ id: article.id, version: request.version }),
        }),
      )
      .add('/api/by-hand/', 'by-hand', async (request: ApiRequest) => {
        const paginator = new PageNumberPagination({ pageSize: 4 });
        const rows = await paginator.paginateQueryset(articles(), request);
        return paginator.getPaginatedResponse((rows ?? []).map((a) => a.id));
      })
      .add('/api/boom/', 'boom', () => {
        throw new Error('secret internals');
      })
      .add(
        '/api/boom-view/',
        'boom-view',
        apiView(() => Promise.reject(new TypeError('view internals'))),
      )
  );
}
