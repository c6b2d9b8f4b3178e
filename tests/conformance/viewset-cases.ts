// Viewsets and routers on every backend (issue 12): list, retrieve, 404s, 405s, OPTIONS, HEAD,
// reverse and the API root under each versioning scheme, and ModelViewSet's default writes.
import {
  AcceptHeaderVersioning,
  ApiSettings,
  createFetchHandler,
  DefaultRouter,
  HostNameVersioning,
  ModelViewSet,
  NamespaceVersioning,
  PageNumberPagination,
  QueryParameterVersioning,
  ReadOnlyModelViewSet,
  Routes,
  reverse,
  type SerializerContext,
  URLPathVersioning,
  ValidationError,
  type VersioningClass,
} from '@pagewise/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallDataset } from '../support/datasets.js';
import type { Dataset } from '../support/tables.js';
import type { ConformanceBackend } from './conformance-suite.js';

type Row = Record<string, unknown>;

class FivePerPage extends PageNumberPagination {
  override pageSize = 5;
}

/** How one versioning scheme is mounted and how a client asks for v2. */
interface Scheme {
  readonly name: string;
  readonly versioningClass: VersioningClass;
  /** The origin a v2 request goes to. */
  readonly origin: string;
  readonly mount: (routes: Routes, router: DefaultRouter) => void;
  /** Path of a v2 request to `path` (`/items/`), with its headers. */
  readonly v2: (path: string) => { path: string; headers?: Record<string, string> };
  /** What `reverse` answers for `path` under v2. */
  readonly link: (path: string) => string;
}

const ORIGIN = 'http://testserver';
const SCHEMES: readonly Scheme[] = [
  {
    name: 'URLPathVersioning',
    versioningClass: URLPathVersioning,
    origin: ORIGIN,
    mount: (routes, router) => router.addTo(routes, '/:version(v1|v2)'),
    v2: (path) => ({ path: `/v2${path}` }),
    link: (path) => `${ORIGIN}/v2${path}`,
  },
  {
    name: 'NamespaceVersioning',
    versioningClass: NamespaceVersioning,
    origin: ORIGIN,
    mount: (routes, router) =>
      routes.include('/v1', 'v1', (v1) => router.addTo(v1)).include('/v2', 'v2', (v2) => router.addTo(v2)),
    v2: (path) => ({ path: `/v2${path}` }),
    link: (path) => `${ORIGIN}/v2${path}`,
  },
  {
    name: 'QueryParameterVersioning',
    versioningClass: QueryParameterVersioning,
    origin: ORIGIN,
    mount: (routes, router) => router.addTo(routes),
    v2: (path) => ({ path: `${path}${path.includes('?') ? '&' : '?'}version=v2` }),
    link: (path) => `${ORIGIN}${path}${path.includes('?') ? '&' : '?'}version=v2`,
  },
  {
    name: 'AcceptHeaderVersioning',
    versioningClass: AcceptHeaderVersioning,
    origin: ORIGIN,
    mount: (routes, router) => router.addTo(routes),
    v2: (path) => ({ path, headers: { accept: 'application/json; version=v2' } }),
    link: (path) => `${ORIGIN}${path}`,
  },
  {
    name: 'HostNameVersioning',
    versioningClass: HostNameVersioning,
    origin: 'http://v2.example.org',
    mount: (routes, router) => router.addTo(routes),
    v2: (path) => ({ path }),
    link: (path) => `http://v2.example.org${path}`,
  },
];

/** An answer of the fetch binding, body parsed. */
interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly body: unknown;
}

function client(routes: Routes, origin: string) {
  const handle = createFetchHandler({ routes, allowedHosts: ['*'] });
  return async (
    path: string,
    init: { method?: string; headers?: Record<string, string>; body?: unknown; raw?: string } = {},
  ): Promise<Answer> => {
    const raw = init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
    const headers = { ...(raw === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers };
    const response = await handle(
      new Request(`${origin}${path}`, {
        method: init.method ?? 'GET',
        headers,
        ...(raw === undefined ? {} : { body: raw }),
      }),
    );
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : null };
  };
}

const idsOf = (body: unknown) => ((body as { results: Row[] }).results ?? []).map((row) => Number(row.id));

/** Every viewset case, on `backend`. */
export function viewsetCases(name: string, open: () => Promise<ConformanceBackend>): void {
  let backend: ConformanceBackend;
  const dataset = smallDataset(12);
  const sorted = dataset.rows.map((row) => Number(row.id)).sort((a, b) => a - b);
  beforeAll(async () => {
    backend = await open();
  });
  afterAll(async () => {
    await backend?.close();
  });

  for (const scheme of SCHEMES) {
    describe(`[${name}] viewsets under ${scheme.name}`, () => {
      const setup = async () => {
        const settings = new ApiSettings({
          defaultVersioningClass: scheme.versioningClass,
          defaultPaginationClass: FivePerPage,
          allowedVersions: ['v1', 'v2'],
          defaultVersion: 'v1',
        });
        const queryset = await backend.orderedById('vs_items', dataset);
        class ItemViewSet extends ReadOnlyModelViewSet<Row> {
          override settings = settings;
          override queryset = queryset;
          override serializer = (row: Row, { request }: SerializerContext<Row>) => ({
            id: Number(row.id),
            url: reverse('item-detail', { kwargs: { id: Number(row.id) }, request }),
            version: request.version,
          });
        }
        const router = new DefaultRouter({ settings }).register('items', ItemViewSet, { basename: 'item' });
        const routes = new Routes();
        scheme.mount(routes, router);
        return client(routes, scheme.origin);
      };

      it('list paginates with the settings class; links and reverse keep the version', async () => {
        const get = await setup();
        const { path, headers } = scheme.v2('/items/?page=2');
        const answer = await get(path, headers ? { headers } : {});
        expect(answer.status).toBe(200);
        expect(idsOf(answer.body)).toEqual(sorted.slice(5, 10));
        const body = answer.body as { count: number; results: Row[]; next: string };
        expect(body.count).toBe(12);
        expect(body.results[0]).toEqual({
          id: sorted[5],
          url: scheme.link(`/items/${sorted[5]}/`),
          version: 'v2',
        });
        expect(new URL(body.next).searchParams.get('page')).toBe('3');
        if (scheme.name === 'AcceptHeaderVersioning') expect(answer.headers.get('vary')).toBe('Accept');
      });

      it('retrieve finds the row by lookupField; absent or ill-typed values are 404, never a database error', async () => {
        const get = await setup();
        const id = sorted[3]!;
        const { path, headers } = scheme.v2(`/items/${id}/`);
        const found = await get(path, headers ? { headers } : {});
        expect(found).toMatchObject({ status: 200, body: { id, url: scheme.link(`/items/${id}/`) } });
        const answerFor = async (value: string) => {
          const missing = scheme.v2(`/items/${encodeURIComponent(value)}/`);
          const answer = await get(missing.path, missing.headers ? { headers: missing.headers } : {});
          return [value, answer.status, answer.body];
        };
        // DRF 3.15+: a well-formed key no row has names the model (Django's get_object_or_404);
        // integers past the column's range are well-formed too (Django's lookup finds no row).
        for (const value of ['999', '-1', '2147483648', '99999999999999999999']) {
          expect(await answerFor(value)).toEqual([
            value,
            404,
            { detail: 'No Item matches the given query.' },
          ]);
        }
        // A value the key's type cannot hold is DRF's bare Http404 (issue 36 §5): int('abc') raises
        // ValueError, which get_object_or_404 turns into Http404 without the model's name.
        for (const value of ['abc', '1.5', "1' or 1=1", '1e3', '\u0000']) {
          expect(await answerFor(value)).toEqual([value, 404, { detail: 'Not found.' }]);
        }
      });

      it('a method without an action is 405 with Allow; OPTIONS is metadata; HEAD has no body', async () => {
        const get = await setup();
        const list = scheme.v2('/items/');
        const detail = scheme.v2(`/items/${sorted[0]}/`);
        const extra = list.headers ? { headers: list.headers } : {};
        const post = await get(list.path, { ...extra, method: 'POST', body: {} });
        expect(post).toMatchObject({ status: 405, body: { detail: 'Method "POST" not allowed.' } });
        expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
        const del = await get(detail.path, { ...extra, method: 'DELETE' });
        expect(del).toMatchObject({ status: 405, body: { detail: 'Method "DELETE" not allowed.' } });
        expect(del.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
        const options = await get(list.path, { ...extra, method: 'OPTIONS' });
        expect(options.status).toBe(200);
        expect(options.body).toMatchObject({
          name: 'Item List',
          renders: ['application/json', 'text/html'],
          parses: ['application/json'],
          pagination: { style: 'FivePerPage', parameters: [{ name: 'page', in: 'query' }] },
        });
        const detailOptions = await get(detail.path, { ...extra, method: 'OPTIONS' });
        expect(detailOptions.status).toBe(200);
        expect(detailOptions.body).not.toHaveProperty('pagination');
        expect(detailOptions.body).toMatchObject({ name: 'Item Instance' });
        const head = await get(list.path, { ...extra, method: 'HEAD' });
        const full = await get(list.path, extra);
        expect([head.status, head.text, head.headers.get('link')]).toEqual([
          200,
          '',
          full.headers.get('link'),
        ]);
      });

      it("DefaultRouter's API root lists each list's absolute URL for the request's version", async () => {
        const get = await setup();
        const { path, headers } = scheme.v2('/');
        const root = await get(path, headers ? { headers } : {});
        expect(root).toMatchObject({ status: 200, body: { items: scheme.link('/items/') } });
      });
    });
  }

  it(`[${name}] ModelViewSet writes through the adapter, or names the hook where it cannot write`, async () => {
    const people: Dataset = {
      columns: { name: { type: 'text' }, score: { type: 'int', nullable: true } },
      rows: [
        { id: 1, name: 'Ada', score: 3 },
        { id: 2, name: 'Grace', score: null },
      ],
    };
    const queryset = await backend.orderedById('vs_people', people);
    class PersonViewSet extends ModelViewSet<Row> {
      override queryset = queryset;
      override paginationClass = null;
      override writableFields = ['id', 'name', 'score'];
      override serializer = (row: Row) => ({ id: Number(row.id), name: row.name, score: row.score });
      override validate = (values: Readonly<Record<string, unknown>>) => {
        if (values.name !== undefined && (typeof values.name !== 'string' || values.name === '')) {
          throw new ValidationError({ name: ['This field may not be blank.'] });
        }
        return values;
      };
    }
    const routes = new DefaultRouter().register('people', PersonViewSet, { basename: 'person' }).routes;
    const call = client(routes, ORIGIN);
    // Arrays are read-only: a memory viewset writes through its perform* hooks, and says so. Every
    // SQL adapter writes.
    expect(queryset.insert === undefined).toBe(backend.name === 'memory');
    if (queryset.insert === undefined) {
      const refused = await call('/people/', { method: 'POST', body: { id: 7, name: 'Edsger', score: 5 } });
      expect(refused.status).toBe(500);
      expect(await call('/people/7/')).toMatchObject({ status: 404 });
      return;
    }

    const created = await call('/people/', { method: 'POST', body: { id: 7, name: 'Edsger', score: 5 } });
    expect(created).toMatchObject({ status: 201, body: { id: 7, name: 'Edsger', score: 5 } });
    expect(await call('/people/7/')).toMatchObject({ status: 200, body: { name: 'Edsger' } });

    const missing = await call('/people/', { method: 'POST', body: { name: 'x' } });
    expect(missing).toMatchObject({
      status: 400,
      body: { id: ['This field is required.'], score: ['This field is required.'] },
    });
    const blank = await call('/people/', { method: 'POST', body: { id: 8, name: '', score: 1 } });
    expect(blank).toMatchObject({ status: 400, body: { name: ['This field may not be blank.'] } });
    const list = await call('/people/', { method: 'POST', body: [1] });
    expect(list).toMatchObject({
      status: 400,
      body: { non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] },
    });
    const broken = await call('/people/', { method: 'POST', raw: '{"id": 9,' });
    expect(broken.status).toBe(400);
    expect((broken.body as { detail: string }).detail).toMatch(/^JSON parse error - /);
    const text = await call('/people/', {
      method: 'POST',
      raw: 'id=9',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text).toMatchObject({
      status: 415,
      body: { detail: 'Unsupported media type "text/plain" in request.' },
    });

    const put = await call('/people/7/', { method: 'PUT', body: { id: 7, name: 'Dijkstra', score: 6 } });
    expect(put).toMatchObject({ status: 200, body: { id: 7, name: 'Dijkstra', score: 6 } });
    const patch = await call('/people/7/', { method: 'PATCH', body: { score: null } });
    expect(patch).toMatchObject({ status: 200, body: { id: 7, name: 'Dijkstra', score: null } });
    expect(await call('/people/abc/', { method: 'PATCH', body: { score: 1 } })).toMatchObject({
      status: 404,
    });

    const gone = await call('/people/7/', { method: 'DELETE' });
    expect([gone.status, gone.text]).toEqual([204, '']);
    expect(await call('/people/7/')).toMatchObject({
      status: 404,
      body: { detail: 'No Person matches the given query.' },
    });
    expect(await call('/people/7/', { method: 'DELETE' })).toMatchObject({ status: 404 });
    expect((await call('/people/')).body).toEqual([
      { id: 1, name: 'Ada', score: 3 },
      { id: 2, name: 'Grace', score: null },
    ]);
  });
}
