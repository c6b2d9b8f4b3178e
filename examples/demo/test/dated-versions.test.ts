import { versionChangelog } from '@pagewise/rest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createDemoApp } from '../src/app.js';
import type { DemoDatabaseHandle } from '../src/database.js';
import { VERSIONING_NAMES } from '../src/versioning.js';
import { DATED_VERSIONS, DEMO_API_KEYS, PATH_VERSIONS } from '../src/versions.js';
import { type AppAnswer, appFetch, feedIds, openSqliteDemo } from './harness.js';

// Issue 39 in the demo: one view per list, written for the newest shape, serves the path versions
// (/v1/, /v2/) and four dated versions (/dated/ with `Api-Version: <date>`) through the same
// version changes. A date between two versions is served by the earlier one; an API key pins a
// client to the version it was created on unless the request names one.

const TOKEN = 'dated-token';
type Body = Record<string, unknown>;
const keysOf = (value: unknown) => Object.keys(value as Body);

const NEWEST = ['id', 'url', 'headline', 'content', 'publishedAt', 'rating', 'author'];
const FLAT_AUTHOR = ['id', 'url', 'headline', 'content', 'author_id', 'author_url', 'publishedAt', 'rating'];
const V1 = ['id', 'url', 'title', 'body', 'author_id', 'author_url', 'published_at', 'rating'];

for (const orm of ['kysely', 'drizzle'] as const) {
  describe(`[${orm}] the demo's dated versions`, () => {
    let database: DemoDatabaseHandle & { cleanup(): Promise<void> };
    let fetch: ReturnType<typeof appFetch>;
    const get = (url: string, headers: Record<string, string> = {}) => fetch({ method: 'GET', url, headers });
    const parsed = (answer: AppAnswer) => JSON.parse(answer.body) as Body;

    beforeAll(async () => {
      database = await openSqliteDemo(orm);
      const handle = database;
      const app = await createDemoApp({
        db: handle.db,
        ...(orm === 'drizzle' ? { drizzle: handle.drizzle } : {}),
        writeToken: TOKEN,
      });
      fetch = appFetch(app);
    }, 120_000);
    afterAll(async () => {
      await database?.cleanup();
    });

    test('each dated version, named exactly: its item, its envelope, and Api-Version naming it', async () => {
      const shapes = [];
      for (const version of DATED_VERSIONS.versions) {
        const answer = await get('/dated/articles/?page_size=2', { 'api-version': version });
        const body = parsed(answer);
        const list = (body.results ?? body.data) as Body[];
        shapes.push({
          version,
          status: answer.status,
          served: answer.headers['api-version'],
          vary: answer.headers.vary,
          envelope: keysOf(body),
          item: keysOf(list[0]),
        });
      }
      expect(shapes).toEqual([
        {
          version: '2026-01-10',
          status: 200,
          served: '2026-01-10',
          vary: 'Accept, Api-Version, X-Api-Key',
          envelope: ['count', 'next', 'previous', 'results'],
          item: NEWEST,
        },
        {
          version: '2025-11-15',
          status: 200,
          served: '2025-11-15',
          vary: 'Accept, Api-Version, X-Api-Key',
          envelope: ['count', 'next', 'previous', 'results'],
          item: FLAT_AUTHOR,
        },
        {
          version: '2025-06-01',
          status: 200,
          served: '2025-06-01',
          vary: 'Accept, Api-Version, X-Api-Key',
          envelope: ['count', 'next', 'previous', 'results'],
          item: V1,
        },
        {
          version: '2025-01-01',
          status: 200,
          served: '2025-01-01',
          vary: 'Accept, Api-Version, X-Api-Key',
          envelope: ['count', 'next', 'previous', 'data'],
          item: V1,
        },
      ]);
    });

    test('the newest dated version is /v2/ and 2025-06-01 is /v1/, but for the URLs (the same changes)', async () => {
      const unversioned = (body: string) => body.replaceAll('/v2/', '/dated/').replaceAll('/v1/', '/dated/');
      for (const [version, path] of [
        ['2026-01-10', 'v2'],
        ['2025-06-01', 'v1'],
      ] as const) {
        for (const url of ['/articles/17/', '/articles/feed/?page_size=3', '/authors/', '/authors/2/']) {
          const dated = await get(`/dated${url}`, { 'api-version': version });
          const old = await get(`/${path}${url}`);
          expect(dated.status, url).toBe(200);
          expect(dated.body, `${version} ${url}`).toBe(unversioned(old.body));
        }
      }
    });

    test('a date between two versions is served by the nearest earlier one, a later date by the newest', async () => {
      const served = [];
      for (const asked of ['2025-12-25', '2025-11-14', '2025-03-01', '2027-05-05']) {
        const answer = await get('/dated/articles/17/', { 'api-version': asked });
        served.push([asked, answer.status, answer.headers['api-version'], keysOf(parsed(answer))]);
      }
      expect(served).toEqual([
        ['2025-12-25', 200, '2025-11-15', FLAT_AUTHOR],
        ['2025-11-14', 200, '2025-06-01', V1],
        ['2025-03-01', 200, '2025-01-01', V1],
        ['2027-05-05', 200, '2026-01-10', NEWEST],
      ]);
    });

    test('an API key pins the version it was created on; a version the request names wins', async () => {
      const pinned = [];
      for (const [key, created] of Object.entries(DEMO_API_KEYS)) {
        const answer = await get('/dated/articles/?page_size=1', { 'x-api-key': key });
        const named = await get('/dated/articles/?page_size=1', {
          'x-api-key': key,
          'api-version': '2026-01-10',
        });
        pinned.push([key, created, answer.headers['api-version'], named.headers['api-version']]);
      }
      expect(pinned).toEqual([
        ['demo-key-2025-03', '2025-03-14', '2025-01-01', '2026-01-10'],
        ['demo-key-2025-08', '2025-08-20', '2025-06-01', '2026-01-10'],
        ['demo-key-2025-12', '2025-12-02', '2025-11-15', '2026-01-10'],
      ]);
      const anonymous = await get('/dated/articles/?page_size=1');
      const unknown = await get('/dated/articles/?page_size=1', { 'x-api-key': 'no-such-key' });
      expect([anonymous.headers['api-version'], unknown.headers['api-version']]).toEqual([
        '2026-01-10',
        '2026-01-10',
      ]);
      const old = await get('/dated/articles/?page_size=1', { 'x-api-key': 'demo-key-2025-03' });
      expect(keysOf(parsed(old))).toEqual(['count', 'next', 'previous', 'data']);
    });

    test('a date before the oldest version, or no date, keeps the header error and names no version', async () => {
      for (const asked of ['2024-12-31', 'v1', '2025-13-01']) {
        const answer = await get('/dated/articles/', { 'api-version': asked });
        expect([answer.status, answer.body, answer.headers['api-version']], asked).toEqual([
          404,
          '{"detail":"Invalid version in \\"Api-Version\\" header."}',
          undefined,
        ]);
        expect(answer.headers.vary).toContain('Api-Version');
      }
    });

    test('links keep the dated mount; the envelope change leaves next and previous alone', async () => {
      const body = parsed(await get('/dated/articles/?page=2&page_size=2', { 'api-version': '2025-01-01' }));
      expect([body.next, body.previous]).toEqual([
        'http://localhost/dated/articles/?page=3&page_size=2',
        'http://localhost/dated/articles/?page_size=2',
      ]);
      const item = (body.data as Body[])[0]!;
      expect(item.url).toMatch(/^http:\/\/localhost\/dated\/articles\/\d+\/$/);
      expect(item.author_url).toMatch(/^http:\/\/localhost\/dated\/authors\/\d+\/$/);
      const root = parsed(await get('/dated/'));
      expect(root.articles).toBe('http://localhost/dated/articles/');
    });

    test('a feed walk that switches version on every page sees every article once', async () => {
      const expected = await feedIds(database);
      const seen: number[] = [];
      let url: string | null = '/dated/articles/feed/?page_size=100';
      let page = 0;
      while (url !== null) {
        const version = DATED_VERSIONS.versions[page % DATED_VERSIONS.versions.length]!;
        const answer = await get(url, { 'api-version': version });
        expect(answer.status).toBe(200);
        const body = parsed(answer);
        seen.push(...((body.results ?? body.data) as Body[]).map((item) => item.id as number));
        url = body.next === null ? null : (body.next as string).replace('http://localhost', '');
        page += 1;
      }
      expect(page).toBe(30);
      expect(seen).toEqual(expected);
    });

    test('writes are answered in the client version (the body names the columns, as under /v2/)', async () => {
      const post = (version: string) =>
        fetch({
          method: 'POST',
          url: '/dated/authors/',
          headers: {
            'api-version': version,
            'content-type': 'application/json',
            authorization: `Token ${TOKEN}`,
          },
          body: `{"name":"Grace ${version}","email":"grace@example.org"}`,
        });
      const newest = await post('2026-01-10');
      const oldest = await post('2025-01-01');
      expect([newest.status, newest.headers['api-version'], keysOf(parsed(newest))]).toEqual([
        201,
        '2026-01-10',
        ['id', 'url', 'displayName', 'contact'],
      ]);
      expect([oldest.status, oldest.headers['api-version'], keysOf(parsed(oldest))]).toEqual([
        201,
        '2025-01-01',
        ['id', 'url', 'name', 'email'],
      ]);
    });
  });
}

test('the changelogs are written from the changes', () => {
  expect(versionChangelog(DATED_VERSIONS)).toBe(
    [
      '## 2026-01-10',
      '',
      '- Articles have `author_id` and `author_url` instead of the `author` object.',
      '',
      '## 2025-11-15',
      '',
      '- Articles have `title`, `body` and `published_at` instead of `headline`, `content` and `publishedAt`.',
      '- Authors have `name` and `email` instead of `displayName` and `contact`.',
      '',
      '## 2025-06-01',
      '',
      '- Lists hold their items in `data` instead of `results`.',
      '',
    ].join('\n'),
  );
  expect(PATH_VERSIONS.versions).toEqual(['v2', 'v1']);
  expect(PATH_VERSIONS.changesOf('v2')).toEqual([
    ...DATED_VERSIONS.changesOf('2026-01-10'),
    ...DATED_VERSIONS.changesOf('2025-11-15'),
  ]);
});

test('every VERSIONING scheme mounts the same dated versions at /dated/', async () => {
  const database = await openSqliteDemo();
  try {
    const seen = [];
    for (const versioning of VERSIONING_NAMES) {
      const fetchApp = appFetch(await createDemoApp({ db: database.db, versioning }));
      const answer = await fetchApp({
        method: 'GET',
        url: '/dated/articles/17/',
        headers: { 'api-version': '2025-06-01' },
      });
      const body = JSON.parse(answer.body) as Body;
      seen.push([versioning, answer.status, answer.headers['api-version'], body.url, body.author_url]);
    }
    expect(seen).toEqual(
      VERSIONING_NAMES.map((versioning) => [
        versioning,
        200,
        '2025-06-01',
        'http://localhost/dated/articles/17/',
        expect.stringMatching(/^http:\/\/localhost\/dated\/authors\/\d+\/$/),
      ]),
    );
  } finally {
    await database.cleanup();
  }
}, 120_000);
