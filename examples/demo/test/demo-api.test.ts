import { request as httpRequest } from 'node:http';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_LIFECYCLE, VERSIONING_NAMES, type VersioningName } from '../src/versioning.js';
import { demoDatabases, type RunningDemo, serveDemo, TEST_ARTICLES } from './harness.js';

interface Page {
  count?: number;
  next: string | null;
  previous: string | null;
  results: Array<Record<string, unknown>>;
}

async function get(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: JSON.parse(text) as unknown };
}

/** A GET with an arbitrary Host header (fetch will not send one), over plain node:http. */
function getWithHost(url: string, host: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = httpRequest(
      { host: '127.0.0.1', port: target.port, path: target.pathname + target.search, headers: { host } },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const byNewest = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  String(b.published_at).localeCompare(String(a.published_at)) || Number(b.id) - Number(a.id);

describe.each(demoDatabases())('demo on $name', (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;
  const demos = new Map<VersioningName, RunningDemo>();

  beforeAll(async () => {
    handle = await database.open();
    for (const name of VERSIONING_NAMES) demos.set(name, await serveDemo(handle, name));
  }, 120_000);

  afterAll(async () => {
    for (const demo of demos.values()) await demo.close();
    await handle?.cleanup();
  });

  const base = (name: VersioningName) => demos.get(name)!.base;

  test('page number: 20 per page, page_size up to 100, page=last', async () => {
    const first = (await get(`${base('path')}/v1/articles/`)).body as Page;
    expect(first.count).toBe(TEST_ARTICLES);
    expect(first.results).toHaveLength(20);
    expect(first.next).toBe(`${base('path')}/v1/articles/?page=2`);
    expect([...first.results].sort(byNewest)).toEqual(first.results);
    expect(((await get(`${base('path')}/v1/articles/?page_size=500`)).body as Page).results).toHaveLength(
      100,
    );
    const last = await get(`${base('path')}/v1/articles/?page=last`);
    const lastPage = last.body as Page;
    expect(lastPage.next).toBeNull();
    expect(lastPage.previous).toBe(`${base('path')}/v1/articles/?page=${TEST_ARTICLES / 20 - 1}`);
    expect(lastPage.results.at(-1)!.id).toBe(1);
    // v1 is deprecated: its lifecycle links follow the pagination link in the one header.
    expect(last.headers.get('link')).toBe(
      `<${lastPage.previous}>; rel="prev", <${DEMO_LIFECYCLE.v1!.link}>; rel="deprecation", <${DEMO_LIFECYCLE.v1!.link}>; rel="sunset"`,
    );
    expect((await get(`${base('path')}/v1/articles/?page=9999`)).body).toEqual({ detail: 'Invalid page.' });
  });

  test('limit/offset: default 20, at most 100, past the end is empty', async () => {
    const page = (await get(`${base('path')}/v1/articles/offset/?offset=40`)).body as Page;
    expect(page.results).toHaveLength(20);
    expect(page.next).toBe(`${base('path')}/v1/articles/offset/?limit=20&offset=60`);
    expect(page.previous).toBe(`${base('path')}/v1/articles/offset/?limit=20&offset=20`);
    expect(((await get(`${base('path')}/v1/articles/offset/?limit=1000`)).body as Page).results).toHaveLength(
      100,
    );
    const past = (await get(`${base('path')}/v1/articles/offset/?offset=${TEST_ARTICLES + 5}`)).body as Page;
    expect(past.results).toEqual([]);
  });

  test('cursor feed: newest first, every row exactly once, previous of next is the same page', async () => {
    const seen: number[] = [];
    let url: string | null = `${base('path')}/v1/articles/feed/?page_size=100`;
    let previousPage: Page | null = null;
    while (url) {
      const page = (await get(url)).body as Page;
      expect([...page.results].sort(byNewest)).toEqual(page.results);
      if (previousPage) {
        const back = (await get(page.previous!)).body as Page;
        expect(back.results).toEqual(previousPage.results);
      }
      seen.push(...page.results.map((r) => Number(r.id)));
      previousPage = page;
      url = page.next;
    }
    expect(seen).toHaveLength(TEST_ARTICLES);
    expect(new Set(seen).size).toBe(TEST_ARTICLES);
  });

  test('cursor feed: ?ordering= over declared fields, the nullable rating included', async () => {
    const desc = (await get(`${base('path')}/v1/articles/feed/?ordering=-rating&page_size=100`)).body as Page;
    expect(desc.results[0]!.rating).toBeNull();
    const ids: number[] = [];
    const ratings: Array<number | null> = [];
    let url: string | null = `${base('path')}/v1/articles/feed/?ordering=rating&page_size=100`;
    while (url) {
      const page = (await get(url)).body as Page;
      ids.push(...page.results.map((r) => Number(r.id)));
      ratings.push(...page.results.map((r) => r.rating as number | null));
      url = page.next;
    }
    expect(new Set(ids).size).toBe(TEST_ARTICLES);
    const firstNull = ratings.indexOf(null);
    expect(firstNull).toBeGreaterThan(0);
    expect(ratings.slice(firstNull).every((r) => r === null)).toBe(true);
    const rated = ratings.slice(0, firstNull) as number[];
    expect([...rated].sort((a, b) => a - b)).toEqual(rated);
    const undeclared = (await get(`${base('path')}/v1/articles/feed/?ordering=body`)).body as Page;
    expect(undeclared.results).toEqual([...undeclared.results].sort(byNewest));
  });

  test('authors are unpaginated; a detail page links back in the same version', async () => {
    const authors = (await get(`${base('path')}/v2/authors/`)).body as Array<Record<string, unknown>>;
    expect(authors).toHaveLength(50);
    expect(authors[0]).toEqual({
      id: 1,
      url: `${base('path')}/v2/authors/1/`,
      displayName: 'Ada Lovelace',
      contact: 'ada.lovelace@example.org',
    });
    const article = (await get(`${base('path')}/v2/articles/7/`)).body as {
      url: string;
      headline: string;
      author: { url: string };
    };
    expect(article.url).toBe(`${base('path')}/v2/articles/7/`);
    expect(article.author.url).toMatch(new RegExp(`^${base('path')}/v2/authors/\\d+/$`));
    expect(Object.keys(article)).toEqual([
      'id',
      'url',
      'headline',
      'content',
      'publishedAt',
      'rating',
      'author',
    ]);
    const v1 = (await get(`${base('path')}/v1/articles/7/`)).body as Record<string, unknown>;
    expect(Object.keys(v1)).toEqual([
      'id',
      'url',
      'title',
      'body',
      'author_id',
      'author_url',
      'published_at',
      'rating',
    ]);
    expect(v1.title).toBe(article.headline);
    expect((await get(`${base('path')}/v1/articles/99999999/`)).status).toBe(404);
    expect((await get(`${base('path')}/v3/articles/`)).body).toEqual({
      detail: 'Invalid version in URL path.',
    });
  });

  test('detail ids outside the id column (integer) are 404, never a database error', async () => {
    const ids = [
      '2147483647',
      '2147483648',
      '-2147483649',
      '4294967296',
      '9007199254740993',
      '9223372036854775807',
      '9223372036854775808',
      '18446744073709551616',
      '9'.repeat(400),
      `${'0'.repeat(300)}2147483648`,
      '-1',
      '-0',
      '0',
      '1.5',
      '1e3',
      'abc',
      '%20',
      '0x10',
    ];
    for (const id of ids) {
      for (const path of [`/v1/articles/${id}/`, `/v2/authors/${id}/`]) {
        const answer = await get(`${base('path')}${path}`);
        expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(404);
        expect(typeof (answer.body as { detail?: unknown }).detail).toBe('string');
      }
    }
    // Leading zeros name the same row, as Django's int converter reads them.
    expect((await get(`${base('path')}/v1/articles/0007/`)).status).toBe(200);
  });

  test('Accept-header versioning: version from the media type, Vary: Accept, 406 for unknown versions', async () => {
    const v2 = await get(`${base('accept')}/articles/?page_size=1`, {
      accept: 'application/json; version=v2',
    });
    expect((v2.body as Page).results[0]).toHaveProperty('headline');
    expect((v2.body as Page).results[0]!.url).toMatch(/\/articles\/\d+\/$/);
    expect(v2.headers.get('vary')).toMatch(/Accept/);
    const fallback = await get(`${base('accept')}/articles/?page_size=1`, { accept: 'application/json' });
    expect((fallback.body as Page).results[0]).toHaveProperty('title');
    const bad = await get(`${base('accept')}/articles/`, { accept: 'application/json; version=v9' });
    expect(bad.status).toBe(406);
    expect(bad.body).toEqual({ detail: 'Invalid version in "Accept" header.' });
    expect(bad.headers.get('vary')).toMatch(/Accept/);
  });

  test('namespace versioning: /v1 and /v2 namespaces, links stay in theirs', async () => {
    const page = (await get(`${base('namespace')}/v2/articles/feed/?page_size=2`)).body as Page;
    expect(page.results[0]).toHaveProperty('headline');
    expect(page.results[0]!.url).toMatch(new RegExp(`^${base('namespace')}/v2/articles/\\d+/$`));
    expect(page.next).toMatch(new RegExp(`^${base('namespace')}/v2/articles/feed/\\?cursor=`));
  });

  test('host-name versioning: v2.localhost serves v2 and links keep the host', async () => {
    const demo = demos.get('host')!;
    const answer = await getWithHost(`${demo.base}/articles/?page_size=1`, `v2.localhost:${demo.port}`);
    expect(answer.status).toBe(200);
    const page = answer.body as Page;
    expect(page.results[0]).toHaveProperty('headline');
    expect(page.next).toBe(`http://v2.localhost:${demo.port}/articles/?page=2&page_size=1`);
    const plain = (await get(`${demo.base}/articles/?page_size=1`)).body as Page;
    expect(plain.results[0]).toHaveProperty('title');
    const untrusted = await getWithHost(`${demo.base}/articles/`, `v2.evil.example:${demo.port}`);
    expect(untrusted.status).toBe(400);
  });

  test('query-parameter versioning: ?version=v2, carried into every link', async () => {
    const page = (await get(`${base('query')}/articles/offset/?version=v2&limit=1`)).body as Page;
    expect(page.results[0]).toHaveProperty('headline');
    expect(page.results[0]!.url).toMatch(/\/articles\/\d+\/\?version=v2$/);
    expect(page.next).toBe(`${base('query')}/articles/offset/?limit=1&offset=1&version=v2`);
    expect((await get(`${base('query')}/articles/?version=v7`)).body).toEqual({
      detail: 'Invalid version in query parameter.',
    });
  });

  test('v1 is deprecated: Deprecation, Sunset and Link after the pagination link; v2 is untouched', async () => {
    const doc = DEMO_LIFECYCLE.v1!.link!;
    const lifecycleLinks = `<${doc}>; rel="deprecation", <${doc}>; rel="sunset"`;
    const v1 = await get(`${base('path')}/v1/articles/`);
    expect([v1.headers.get('deprecation'), v1.headers.get('sunset')]).toEqual([
      '@1780272000',
      'Tue, 01 Jan 2030 00:00:00 GMT',
    ]);
    expect(v1.headers.get('link')).toBe(
      `<${base('path')}/v1/articles/?page=2>; rel="next", ${lifecycleLinks}`,
    );
    const v2 = await get(`${base('path')}/v2/articles/`);
    expect([v2.headers.get('deprecation'), v2.headers.get('sunset')]).toEqual([null, null]);
    expect(v2.headers.get('link')).toBe(`<${base('path')}/v2/articles/?page=2>; rel="next"`);
    // Where v1 is the default version, an unversioned request is a v1 request.
    const accept = await get(`${base('accept')}/articles/feed/`);
    expect(accept.headers.get('deprecation')).toBe('@1780272000');
    expect(accept.headers.get('link')).toMatch(/^<[^>]+>; rel="next", /);
    const acceptV2 = await get(`${base('accept')}/articles/feed/`, {
      accept: 'application/json; version=v2',
    });
    expect(acceptV2.headers.get('deprecation')).toBeNull();
  });

  test('after the sunset (a clock set past 2030-01-01) v1 answers 410 and v2 still serves', async () => {
    const later = await serveDemo(handle, 'namespace', { now: () => new Date('2030-01-01T00:00:00Z') });
    try {
      const gone = await get(`${later.base}/v1/articles/`);
      expect(gone.status).toBe(410);
      expect(gone.body).toEqual({ detail: 'API version "v1" was retired on 2030-01-01.' });
      expect(gone.headers.get('sunset')).toBe('Tue, 01 Jan 2030 00:00:00 GMT');
      expect((await get(`${later.base}/v2/articles/`)).status).toBe(200);
    } finally {
      await later.close();
    }
  });

  test.each(VERSIONING_NAMES)(
    'OpenAPI documents validate (%s versioning, every version and each one, 3.1 and 3.0)',
    async (name) => {
      for (const path of ['/openapi.json', '/v1/openapi.json', '/v2/openapi.json']) {
        for (const version of ['3.1', '3.0'] as const) {
          const { status, body } = await get(
            `${base(name)}${path}${version === '3.0' ? '?openapi=3.0' : ''}`,
          );
          expect(status).toBe(200);
          const document = body as {
            openapi: string;
            paths: Record<string, unknown>;
            components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
          };
          expect(document.openapi).toBe(version === '3.1' ? '3.1.0' : '3.0.3');
          expect(Object.keys(document.paths).length).toBeGreaterThanOrEqual(5);
          const result = await new Validator().validate(document as Parameters<Validator['validate']>[0]);
          expect(result.errors ?? []).toEqual([]);
          expect(result.valid).toBe(true);
          // A document of one version holds only that version's article shape.
          const shapes = Object.keys(document.components.schemas).filter((key) => key.startsWith('Article'));
          if (path === '/openapi.json') expect(shapes.sort()).toEqual(['ArticleV1', 'ArticleV2']);
          else {
            expect(shapes).toEqual(['Article']);
            const fields = Object.keys(document.components.schemas.Article!.properties ?? {});
            expect(fields).toContain(path.startsWith('/v2') ? 'headline' : 'title');
            expect(fields).not.toContain(path.startsWith('/v2') ? 'title' : 'headline');
          }
        }
      }
      expect((await get(`${base(name)}/v3/openapi.json`)).status).toBe(404);
      expect((await get(`${base(name)}/v2/openapi.json?openapi=2.0`)).status).toBe(404);
    },
  );
});
