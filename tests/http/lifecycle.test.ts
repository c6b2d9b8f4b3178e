// Version lifecycle (RFC 9745 Deprecation, RFC 8594 Sunset) over real HTTP on every binding:
// all five schemes, the Link header merged with each pagination style's, 410 from the sunset on.

import { fromArray } from '@pagewise/memory-adapter';
import {
  AcceptHeaderVersioning,
  type ApiRequest,
  ApiSettings,
  apiView,
  CursorPagination,
  HostNameVersioning,
  LimitOffsetPagination,
  ListView,
  NamespaceVersioning,
  PageNumberPagination,
  QueryParameterVersioning,
  ReadOnlyModelViewSet,
  Routes,
  SimpleRouter,
  URLPathVersioning,
  type VersionLifecycleMap,
} from '@pagewise/rest';
import { beforeEach, describe, expect, it } from 'vitest';
import { ARTICLES, type Article } from './app.js';
import { type Answer, describeBindings, send, useServer } from './bindings.js';

const DOC = 'https://example.org/deprecations/v1';
const LIFECYCLE: VersionLifecycleMap = {
  v1: { deprecated: '2026-06-01', sunset: '2027-01-01T12:00:00Z', link: DOC },
  v0: { deprecated: true },
};
const DEPRECATION = '@1780272000'; // 2026-06-01T00:00:00Z
const SUNSET = 'Fri, 01 Jan 2027 12:00:00 GMT';
const LIFECYCLE_LINKS = `<${DOC}>; rel="deprecation", <${DOC}>; rel="sunset"`;
const BEFORE_SUNSET = new Date('2026-07-01T00:00:00Z');
const AT_SUNSET = new Date('2027-01-01T12:00:00Z');

/** The clock of one suite's server; each test sets the instant it runs at. */
function testClock() {
  const clock = { at: BEFORE_SUNSET, now: () => clock.at };
  return clock;
}

const articles = () => fromArray(ARTICLES);
const title = (article: Article) => article.title;

class ThreePerPage extends PageNumberPagination {
  override pageSize = 3;
}
class ThreeByCursor extends CursorPagination {
  override pageSize = 3;
  override ordering = 'id';
}
class TwoByOffset extends LimitOffsetPagination {
  override defaultLimit = 2;
}

function lifecycleRoutes(now: () => Date): Routes {
  const options = { lifecycle: LIFECYCLE, now, allowedVersions: ['v0', 'v1', 'v2'] };
  class Notes extends ReadOnlyModelViewSet<Article> {
    override paginationClass = null;
    override versioningClass = NamespaceVersioning.withOptions(options);
    override getQueryset = async () => articles();
    override serializer = (article: Article) => article.id;
  }
  const router = new SimpleRouter().register('notes', Notes, { basename: 'note' });
  const settings = new ApiSettings({
    defaultVersioningClass: QueryParameterVersioning,
    defaultVersion: 'v2',
    lifecycle: LIFECYCLE,
    now,
  });
  return new Routes()
    .add(
      '/path/:version(v0|v1|v2|v3)/articles/',
      'path-list',
      ListView.asView({
        queryset: articles,
        paginationClass: ThreePerPage,
        versioningClass: URLPathVersioning.withOptions(options),
        serializer: title,
      }),
    )
    .add(
      '/query/articles/',
      'query-list',
      ListView.asView({
        queryset: articles,
        paginationClass: ThreeByCursor,
        versioningClass: QueryParameterVersioning.withOptions(options),
        serializer: title,
      }),
    )
    .add(
      '/accept/articles/',
      'accept-list',
      ListView.asView({
        queryset: articles,
        paginationClass: TwoByOffset,
        versioningClass: AcceptHeaderVersioning.withOptions({ ...options, defaultVersion: 'v2' }),
        serializer: title,
      }),
    )
    .add(
      '/host/',
      'host-view',
      apiView((request: ApiRequest) => ({ version: request.version }), {
        versioningClass: HostNameVersioning.withOptions(options),
      }),
    )
    .add(
      '/settings/articles/',
      'settings-list',
      ListView.asView({ queryset: articles, settings, paginationClass: null, serializer: title }),
    )
    .add(
      '/custom-message/:version/',
      'custom-message',
      apiView((request: ApiRequest) => ({ version: request.version }), {
        versioningClass: URLPathVersioning.withOptions({
          ...options,
          sunsetMessage: 'Version {version} was switched off on {sunset}. Move to v2.',
        }),
      }),
    )
    .include('/v0', 'v0', (v0) => router.addTo(v0))
    .include('/v1', 'v1', (v1) => router.addTo(v1))
    .include('/v2', 'v2', (v2) => router.addTo(v2));
}

/** The lifecycle headers of an answer, absent ones as null. */
const lifecycleHeaders = (answer: Answer) => ({
  deprecation: answer.headers.get('deprecation'),
  sunset: answer.headers.get('sunset'),
  link: answer.headers.get('link'),
});

const DEPRECATED_V1 = { deprecation: DEPRECATION, sunset: SUNSET };

describeBindings('version lifecycle', (binding) => {
  const clock = testClock();
  const get = useServer(binding, {
    routes: lifecycleRoutes(clock.now),
    allowedHosts: ['127.0.0.1', '.example.org'],
  });
  beforeEach(() => {
    clock.at = BEFORE_SUNSET;
  });
  const call = (path: string, headers: Record<string, string> = {}) => send(get().server, path, { headers });

  /** One request per scheme for version `v`, and the pagination Link each one has of its own. */
  const SCHEMES = [
    {
      name: 'URL path (page numbers)',
      request: (v: string) => call(`/path/${v}/articles/`),
      pagination: (v: string) => `<${get().server.origin}/path/${v}/articles/?page=2>; rel="next"`,
    },
    {
      name: 'query parameter (cursor)',
      request: (v: string) => call(`/query/articles/?version=${v}`),
      pagination: null, // cursor values are opaque: checked by shape below
    },
    {
      name: 'Accept header (limit/offset)',
      request: (v: string) => call('/accept/articles/', { accept: `application/json; version=${v}` }),
      pagination: () => `<${get().server.origin}/accept/articles/?limit=2&offset=2>; rel="next"`,
    },
    {
      name: 'host name',
      request: (v: string) => call('/host/', { host: `${v}.example.org` }),
      pagination: undefined,
    },
    {
      name: 'namespace (viewset)',
      request: (v: string) => call(`/${v}/notes/`),
      pagination: undefined,
    },
  ] as const;

  for (const scheme of SCHEMES) {
    describe(scheme.name, () => {
      it('a deprecated version: Deprecation, Sunset and Link with both relations', async () => {
        const answer = await scheme.request('v1');
        expect(answer.status).toBe(200);
        expect(lifecycleHeaders(answer)).toMatchObject(DEPRECATED_V1);
        const link = answer.headers.get('link')!;
        if (scheme.pagination === undefined) expect(link).toBe(LIFECYCLE_LINKS);
        else if (scheme.pagination === null) {
          expect(link).toMatch(/^<[^>]+\?cursor=[A-Za-z0-9_-]+&version=v1>; rel="next", /);
          expect(link.endsWith(`, ${LIFECYCLE_LINKS}`)).toBe(true);
        } else expect(link).toBe(`${scheme.pagination('v1')}, ${LIFECYCLE_LINKS}`);
      });

      it('a version without lifecycle is untouched (pagination Link only)', async () => {
        const answer = await scheme.request('v2');
        expect(answer.status).toBe(200);
        expect(answer.headers.get('deprecation')).toBeNull();
        expect(answer.headers.get('sunset')).toBeNull();
        const link = answer.headers.get('link');
        if (scheme.pagination === undefined) expect(link).toBeNull();
        else if (scheme.pagination === null) expect(link).toMatch(/^<[^>]+>; rel="next"$/);
        else expect(link).toBe(scheme.pagination('v2'));
      });

      it('deprecated: true: the response instant as the RFC 9651 date, no Sunset, no Link', async () => {
        clock.at = new Date('2026-07-01T00:00:09.900Z');
        const answer = await scheme.request('v0');
        expect(answer.status).toBe(200);
        expect(answer.headers.get('deprecation')).toBe('@1782864009');
        expect(answer.headers.get('sunset')).toBeNull();
        expect(answer.headers.get('link') ?? '').not.toContain('deprecation');
      });

      it('from the sunset instant on: 410 Gone with a clear detail, the headers still sent', async () => {
        clock.at = AT_SUNSET;
        const answer = await scheme.request('v1');
        expect(answer.status).toBe(410);
        expect(answer.json()).toEqual({ detail: 'API version "v1" was retired on 2027-01-01T12:00:00Z.' });
        expect(lifecycleHeaders(answer)).toEqual({ ...DEPRECATED_V1, link: LIFECYCLE_LINKS });
        expect((await scheme.request('v2')).status).toBe(200);
      });
    });
  }

  it('Vary is unchanged by the lifecycle: Accept for the Accept scheme, also on the 410', async () => {
    const ok = await call('/accept/articles/', { accept: 'application/json; version=v1' });
    expect(ok.headers.get('vary')).toBe('Accept');
    clock.at = AT_SUNSET;
    const gone = await call('/accept/articles/', { accept: 'application/json; version=v1' });
    expect([gone.status, gone.headers.get('vary')]).toEqual([410, 'Accept']);
  });

  it('a refused version carries no lifecycle headers', async () => {
    const answer = await call('/path/v3/articles/');
    expect(answer.status).toBe(404);
    expect(lifecycleHeaders(answer)).toEqual({ deprecation: null, sunset: null, link: null });
  });

  it('error answers of a deprecated version carry the headers (404 of an invalid page)', async () => {
    const answer = await call('/path/v1/articles/?page=99');
    expect(answer.status).toBe(404);
    expect(lifecycleHeaders(answer)).toEqual({ ...DEPRECATED_V1, link: LIFECYCLE_LINKS });
  });

  it('the lifecycle and clock of ApiSettings reach the default scheme', async () => {
    const v1 = await call('/settings/articles/?version=v1');
    expect(lifecycleHeaders(v1)).toEqual({ ...DEPRECATED_V1, link: LIFECYCLE_LINKS });
    const v2 = await call('/settings/articles/');
    expect(lifecycleHeaders(v2)).toEqual({ deprecation: null, sunset: null, link: null });
    clock.at = AT_SUNSET;
    expect((await call('/settings/articles/?version=v1')).status).toBe(410);
  });

  it('sunsetMessage replaces the 410 detail', async () => {
    clock.at = AT_SUNSET;
    const answer = await call('/custom-message/v1/');
    expect([answer.status, answer.json()]).toEqual([
      410,
      { detail: 'Version v1 was switched off on 2027-01-01T12:00:00Z. Move to v2.' },
    ]);
  });

  it('the browsable page says the version is deprecated, and after the sunset that it is gone', async () => {
    const page = await call('/path/v1/articles/', { accept: 'text/html' });
    expect(page.headers.get('deprecation')).toBe(DEPRECATION);
    expect(page.text).toContain(
      '<aside class="version-notice" role="note">API version &quot;v1&quot; is deprecated since 2026-06-01 ' +
        `and will be retired on 2027-01-01T12:00:00Z. <a href="${DOC}" rel="deprecation">More information</a></aside>`,
    );
    expect((await call('/path/v2/articles/', { accept: 'text/html' })).text).not.toContain(
      'class="version-notice"',
    );
    clock.at = AT_SUNSET;
    const gone = await call('/path/v1/articles/', { accept: 'text/html' });
    expect(gone.status).toBe(410);
    expect(gone.text).toContain('API version &quot;v1&quot; was retired on 2027-01-01T12:00:00Z.');
  });
});
