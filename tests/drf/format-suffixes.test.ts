// DRF's format suffixes and URL_FORMAT_OVERRIDE (issue 32, item 1), ported from
// tests/test_urlpatterns.py (FormatSuffixTests), tests/test_routers.py (DefaultRouter adds
// format_suffix_patterns) and tests/test_renderers.py (RendererEndToEndTests). Where DRF's answer
// is checked here without an upstream test, it was read off DRF 3.18 serving the same routes.

import { fromArray } from '@pagewise/memory-adapter';
import {
  ApiRequest,
  ApiView,
  apiView,
  buildOpenApiDocument,
  createFetchHandler,
  DefaultRouter,
  formatSuffixPatterns,
  ModelViewSet,
  type Renderer,
  Routes,
  reverse,
  SimpleRouter,
  type WriteContext,
  type WriteValues,
} from '@pagewise/rest';
import { describe, expect, it } from 'vitest';

const noop = () => ({});

/** `FormatSuffixTests._resolve_urlpatterns`: each path resolves to these keyword arguments, or not at all. */
function expectResolved(routes: Routes, cases: ReadonlyArray<[string, Record<string, string> | null]>) {
  for (const [path, params] of cases) {
    const match = routes.match(path);
    expect([path, match === null ? null : { ...match.params }]).toEqual([path, params]);
  }
}

describe('formatSuffixPatterns (tests/test_urlpatterns.py)', () => {
  it('test_trailing_slash: /test.api and /test.api/ resolve, /test/.api does not', () => {
    const routes = formatSuffixPatterns(new Routes().add('/test/', 'test', noop));
    expectResolved(routes, [
      ['/test.api', { format: 'api' }],
      ['/test/.api', null],
      ['/test.api/', { format: 'api' }],
      ['/test/', {}],
    ]);
  });

  it('test_format_suffix: the plain path and any [a-z0-9]+ suffix', () => {
    const routes = formatSuffixPatterns(new Routes().add('/test', 'test', noop));
    expectResolved(routes, [
      ['/test', {}],
      ['/test.api', { format: 'api' }],
      ['/test.asdf', { format: 'asdf' }],
      ['/test.JSON', null],
    ]);
  });

  it('test_format_suffix_django2_args: path parameters keep their values beside the format', () => {
    const routes = formatSuffixPatterns(
      new Routes().add('/convtest/:pk(\\d+)', 'conv', noop).add('/retest/:pk([1-9]{2})', 're', noop),
    );
    expectResolved(routes, [
      ['/convtest/42', { pk: '42' }],
      ['/convtest/42.api', { pk: '42', format: 'api' }],
      ['/convtest/42.asdf', { pk: '42', format: 'asdf' }],
      ['/retest/42', { pk: '42' }],
      ['/retest/42.api', { pk: '42', format: 'api' }],
      ['/retest/42.asdf', { pk: '42', format: 'asdf' }],
    ]);
  });

  it('test_included_urls: included (namespaced) routes get suffixes too, in their namespace', () => {
    const routes = formatSuffixPatterns(
      new Routes().include('/test', 'test', (nested) => nested.add('/path', 'path', noop)),
    );
    expectResolved(routes, [
      ['/test/path', {}],
      ['/test/path.api', { format: 'api' }],
      ['/test/path.asdf', { format: 'asdf' }],
    ]);
    expect(routes.match('/test/path.api')?.namespace).toBe('test');
    expect(routes.reversePath('test:path', [], { format: 'api' })).toBe('/test/path.api');
  });

  it('test_included_urls_mixed: parameters of the prefix and of the included route', () => {
    const routes = formatSuffixPatterns(
      new Routes().include('/pre_path/:parent([0-9]{2})', 'pre', (nested) =>
        nested.add('/path/:child(\\d+)', 'child', noop),
      ),
    );
    expectResolved(routes, [
      ['/pre_path/87/path/42', { parent: '87', child: '42' }],
      ['/pre_path/87/path/42.api', { parent: '87', child: '42', format: 'api' }],
      ['/pre_path/87/path/42.asdf', { parent: '87', child: '42', format: 'asdf' }],
    ]);
  });

  it('test_allowed_formats: only the allowed suffixes resolve', () => {
    const routes = formatSuffixPatterns(new Routes().add('/test', 'test', noop), {
      allowed: ['good', 'ugly'],
    });
    expectResolved(routes, [
      ['/test.good/', { format: 'good' }],
      ['/test.bad', null],
      ['/test.ugly', { format: 'ugly' }],
    ]);
  });

  it('suffix_required: only the suffixed routes', () => {
    const routes = formatSuffixPatterns(new Routes().add('/test/', 'test', noop), { suffixRequired: true });
    expectResolved(routes, [
      ['/test/', null],
      ['/test.json', { format: 'json' }],
    ]);
  });

  it('keeps the order of the table: each route, then its suffixed twin (reverse still finds both)', () => {
    const routes = formatSuffixPatterns(new Routes().add('/a/', 'a', noop).add('/b/:id/', 'b', noop));
    expect(routes.routes.map((route) => route.pattern)).toEqual([
      '/a/',
      '/a.:format([a-z0-9]+)/?',
      '/b/:id/',
      '/b/:id.:format([a-z0-9]+)/?',
    ]);
    expect(routes.reversePath('a')).toBe('/a/');
    expect(routes.reversePath('b', [], { id: 7, format: 'json' })).toBe('/b/7.json');
  });

  it('a suffixed pattern is ordinary route syntax: it can be copied into another table', () => {
    const source = formatSuffixPatterns(new Routes().add('/a/', 'a', noop));
    const copy = new Routes();
    for (const route of source.routes) copy.add(`/v1${route.pattern}`, route.name, route.handler);
    expectResolved(copy, [
      ['/v1/a.json', { format: 'json' }],
      ['/v1/a.json/', { format: 'json' }],
    ]);
  });
});

interface Article {
  readonly id: number;
  readonly title: string;
}

function articleRouter(router: SimpleRouter) {
  let articles: Article[] = [
    { id: 1, title: 't1' },
    { id: 2, title: 't2' },
  ];
  class ArticleViewSet extends ModelViewSet<Article> {
    override paginationClass = null;
    override writableFields = ['title'];
    override getQueryset = async () => fromArray(articles);
    override performCreate = (values: WriteValues) => {
      const article = { id: articles.length + 1, title: String(values.title) };
      articles = [...articles, article];
      return article;
    };
    override performDestroy = ({ instance }: WriteContext<Article>) => {
      articles = articles.filter((article) => article.id !== instance!.id);
    };
  }
  return router.register('articles', ArticleViewSet, { basename: 'article' });
}

function serve(routes: Routes) {
  const handle = createFetchHandler({ routes, allowedHosts: ['testserver'] });
  return async (path: string, init: RequestInit = {}) => {
    const response = await handle(new Request(`http://testserver${path}`, init));
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      text,
      body: text && response.headers.get('content-type') === 'application/json' ? JSON.parse(text) : text,
    };
  };
}

const DETAIL_ALLOW = 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS';
const LIST_ALLOW = 'GET, POST, HEAD, OPTIONS';

describe("DefaultRouter's format suffixes (include_format_suffixes)", () => {
  const get = serve(articleRouter(new DefaultRouter()).addTo(new Routes(), '/api'));

  it('/api/articles.json and /api/articles.json/ are the list, /api/articles/1.json the detail', async () => {
    const list = [
      { id: 1, title: 't1' },
      { id: 2, title: 't2' },
    ];
    expect(await get('/api/articles.json')).toMatchObject({ status: 200, body: list });
    expect(await get('/api/articles.json/')).toMatchObject({ status: 200, body: list });
    const detail = await get('/api/articles/1.json');
    expect(detail).toMatchObject({ status: 200, body: { id: 1, title: 't1' } });
    expect([detail.headers.get('vary'), detail.headers.get('allow')]).toEqual(['Accept', DETAIL_ALLOW]);
  });

  it("the API root's suffix, /api/.json, links each list with the same suffix", async () => {
    expect(await get('/api/.json')).toMatchObject({
      status: 200,
      body: { articles: 'http://testserver/api/articles.json' },
    });
  });

  it("a root link whose route has no suffixed twin is left out of the suffixed root, as DRF's NoReverseMatch", async () => {
    const routes = articleRouter(new DefaultRouter({ rootLinks: { health: 'health' } })).addTo(
      new Routes().add('/health/', 'health', () => ({ ok: true })),
      '/api',
    );
    const root = serve(routes);
    expect((await root('/api/')).body).toEqual({
      articles: 'http://testserver/api/articles/',
      health: 'http://testserver/health/',
    });
    expect((await root('/api/.json')).body).toEqual({ articles: 'http://testserver/api/articles.json' });
  });

  it('a suffix no renderer has is a 404 from the view, with its Vary and Allow (DRF: filter_renderers)', async () => {
    for (const [path, allow] of [
      ['/api/articles/1.5/', DETAIL_ALLOW],
      ['/api/articles/1.xml', DETAIL_ALLOW],
      ['/api/articles.xml', LIST_ALLOW],
      ['/api/.xml', 'GET, HEAD, OPTIONS'],
    ] as const) {
      const answer = await get(path);
      expect([path, answer.status, answer.body]).toEqual([path, 404, { detail: 'Not found.' }]);
      expect([path, answer.headers.get('vary'), answer.headers.get('allow')]).toEqual([
        path,
        'Accept',
        allow,
      ]);
    }
  });

  it('?format= picks the renderer: json, api (the browsable page); an unknown one is 404 with Vary and Allow', async () => {
    const json = await get('/api/articles/1/?format=json');
    expect([json.status, json.headers.get('content-type')]).toEqual([200, 'application/json']);
    // The format narrows the renderers before Accept is read: JSON for a client asking for HTML is
    // 406, as DRF answers it.
    const refused = await get('/api/articles/1/?format=json', { headers: { accept: 'text/html' } });
    expect([refused.status, refused.body, refused.headers.get('vary')]).toEqual([
      406,
      { detail: 'Could not satisfy the request Accept header.' },
      'Accept',
    ]);
    const page = await get('/api/articles/1/?format=api');
    expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    expect(page.text).toContain('<!DOCTYPE html>');
    const xml = await get('/api/articles/1/?format=xml');
    expect([xml.status, xml.body, xml.headers.get('vary'), xml.headers.get('allow')]).toEqual([
      404,
      { detail: 'Not found.' },
      'Accept',
      DETAIL_ALLOW,
    ]);
    // An empty ?format= picks nothing: negotiation as usual.
    expect((await get('/api/articles/1/?format=')).status).toBe(200);
  });

  it('a suffix wins over ?format= (format_suffix or query_params.get(...))', async () => {
    const answer = await get('/api/articles/1.json?format=api');
    expect([answer.status, answer.headers.get('content-type')]).toEqual([200, 'application/json']);
  });

  it('writes and deletes go through suffixed routes too', async () => {
    const created = await get('/api/articles.json', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"title": "t3"}',
    });
    expect(created).toMatchObject({ status: 201, body: { id: 3, title: 't3' } });
    expect((await get('/api/articles/3.json', { method: 'DELETE' })).status).toBe(204);
  });

  it('reverse(..., { format }) gives what DRF gives for its regex routes', () => {
    const routes = articleRouter(new DefaultRouter()).addTo(new Routes(), '/api');
    const request = new ApiRequest({ url: 'http://testserver/api/' });
    request.routes = routes;
    expect(reverse('article-list', { request, format: 'json' })).toBe('http://testserver/api/articles.json');
    expect(reverse('article-detail', { request, kwargs: { id: 1 }, format: 'json' })).toBe(
      'http://testserver/api/articles/1.json',
    );
    expect(reverse('article-detail', { request, kwargs: { id: 1 } })).toBe(
      'http://testserver/api/articles/1/',
    );
  });

  it('includeFormatSuffixes: false leaves them out', async () => {
    const plain = serve(articleRouter(new DefaultRouter({ includeFormatSuffixes: false })).routes);
    expect((await plain('/articles.json')).status).toBe(404);
    expect((await plain('/articles/')).status).toBe(200);
  });

  it('the OpenAPI document leaves the suffixed routes out, as DRF ignores ".{format}" paths', () => {
    class Described extends ModelViewSet<Article> {
      override queryset = fromArray<Article>([]);
      override writableFields = ['title'];
      override schema = {
        type: 'object',
        properties: { id: { type: 'integer' }, title: { type: 'string' } },
      };
    }
    const routes = new DefaultRouter().register('articles', Described, { basename: 'article' }).routes;
    const document = buildOpenApiDocument(routes, { title: 'API' }) as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths).sort()).toEqual(['/', '/articles/', '/articles/{id}/']);
  });
});

describe('SimpleRouter has no suffixes (DRF adds them in DefaultRouter only)', () => {
  const get = serve(articleRouter(new SimpleRouter()).routes);

  it('/articles.json is no route', async () => {
    const answer = await get('/articles.json');
    expect([answer.status, answer.body]).toEqual([404, { detail: 'Not found.' }]);
  });
});

/** DRF's `RendererA`/`RendererB` (tests/test_renderers.py). */
const rendererA: Renderer = {
  mediaType: 'mock/renderera',
  format: 'formata',
  charset: 'utf-8',
  render: (data) => `Renderer A: ${JSON.stringify(data)}`,
};
const rendererB: Renderer = {
  mediaType: 'mock/rendererb',
  format: 'formatb',
  charset: 'utf-8',
  render: (data) => `Renderer B: ${JSON.stringify(data)}`,
};

class MockView extends ApiView {
  override renderers = [rendererA, rendererB];
  override get() {
    return 'dummycontent';
  }
}

describe('RendererEndToEndTests (tests/test_renderers.py)', () => {
  const get = serve(
    new Routes()
      .add('/', 'mock', MockView.asView())
      .add('/something.:format(.+)', 'mock-format', MockView.asView()),
  );

  it('test_specified_renderer_serializes_content_on_format_query', async () => {
    const answer = await get('/?format=formatb');
    expect([answer.headers.get('content-type'), answer.text]).toEqual([
      'mock/rendererb; charset=utf-8',
      'Renderer B: "dummycontent"',
    ]);
  });

  it('test_specified_renderer_serializes_content_on_format_kwargs', async () => {
    const answer = await get('/something.formatb');
    expect([answer.headers.get('content-type'), answer.text]).toEqual([
      'mock/rendererb; charset=utf-8',
      'Renderer B: "dummycontent"',
    ]);
  });

  it('test_specified_renderer_is_used_on_format_query_with_matching_accept', async () => {
    const answer = await get('/?format=formatb', { headers: { accept: 'mock/rendererb' } });
    expect([answer.headers.get('content-type'), answer.text]).toEqual([
      'mock/rendererb; charset=utf-8',
      'Renderer B: "dummycontent"',
    ]);
  });
});

describe('format suffixes on plain routes', () => {
  const plainThing = apiView((request) => ({
    self: reverse('plain', { request, ...(request.params.format ? { format: request.params.format } : {}) }),
    list: reverse('plain', { request, format: 'json' }),
  }));
  const get = serve(formatSuffixPatterns(new Routes().add('/plain/', 'plain', plainThing)));

  it('/plain.json reaches the view with format json; reverse keeps the suffix; ?format= is carried over', async () => {
    expect(await get('/plain/')).toMatchObject({
      status: 200,
      body: { self: 'http://testserver/plain/', list: 'http://testserver/plain.json' },
    });
    expect(await get('/plain.json')).toMatchObject({
      status: 200,
      body: { self: 'http://testserver/plain.json' },
    });
    expect(await get('/plain.json?format=api', { headers: { accept: 'application/json' } })).toMatchObject({
      status: 200,
      body: {
        self: 'http://testserver/plain.json?format=api',
        list: 'http://testserver/plain.json?format=api',
      },
    });
  });
});

describe('TestRootView (tests/test_routers.py)', () => {
  class MockViewSet extends ModelViewSet<{ id: number }> {
    override paginationClass = null;
    override queryset = fromArray([{ id: 1 }]);
    override writableFields = ['id'];
  }
  const namespacedRouter = () =>
    new DefaultRouter().register('example', MockViewSet, { basename: 'example' });
  const routes = namespacedRouter().addTo(new Routes(), '/non-namespaced');
  routes.include('/namespaced', 'namespaced', (namespaced) => namespacedRouter().addTo(namespaced));
  const get = serve(routes);

  it('test_retrieve_namespaced_root: the root reverses its lists in its own namespace', async () => {
    expect((await get('/namespaced/')).body).toEqual({ example: 'http://testserver/namespaced/example/' });
    expect((await get('/namespaced/.json')).body).toEqual({
      example: 'http://testserver/namespaced/example.json',
    });
  });

  it('test_retrieve_non_namespaced_root', async () => {
    expect((await get('/non-namespaced/')).body).toEqual({
      example: 'http://testserver/non-namespaced/example/',
    });
  });
});
