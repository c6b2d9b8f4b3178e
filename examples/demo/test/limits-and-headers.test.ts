import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_LIFECYCLE, VERSIONING_NAMES, type VersioningName } from '../src/versioning.js';
import { demoDatabases, RowCounter, type RunningDemo, serveDemo, TEST_ARTICLES } from './harness.js';
import { rawGet } from './http-client.js';

const LISTS = ['/articles/', '/articles/offset/', '/articles/feed/'];
const prefix = (scheme: VersioningName) => (scheme === 'path' || scheme === 'namespace' ? '/v1' : '');

describe.each(demoDatabases())('limits and header safety, demo on $name', (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;
  const counter = new RowCounter();
  const demos = new Map<VersioningName, RunningDemo>();

  beforeAll(async () => {
    handle = await database.open();
    const counted = { ...handle, db: handle.db.withPlugin(counter) };
    for (const name of VERSIONING_NAMES) demos.set(name, await serveDemo(counted, name, { maxOffset: 2000 }));
  }, 120_000);

  afterAll(async () => {
    for (const demo of demos.values()) await demo.close();
    await handle?.cleanup();
  });

  const get = (scheme: VersioningName, path: string, headers: Record<string, string> = {}) => {
    const demo = demos.get(scheme)!;
    return rawGet(demo.port, `${prefix(scheme)}${path}`, { host: `localhost:${demo.port}`, ...headers });
  };

  test('page sizes and limits clamp to 100; no request makes the server fetch more than 101 rows', async () => {
    counter.counts.length = 0;
    const hostile = ['1000', '99999999999999999999', '101', '-1', '0', 'abc', '1e6', ' 500 '];
    for (const value of hostile) {
      for (const [path, param] of [
        ['/articles/', 'page_size'],
        ['/articles/offset/', 'limit'],
        ['/articles/feed/', 'page_size'],
      ] as const) {
        const answer = await get('path', `${path}?${param}=${encodeURIComponent(value)}`);
        expect(answer.status).toBe(200);
        const results = (JSON.parse(answer.body) as { results: unknown[] }).results;
        expect(results.length).toBeLessThanOrEqual(100);
        if (['1000', '99999999999999999999', '101'].includes(value)) expect(results).toHaveLength(100);
      }
    }
    expect(counter.counts.length).toBeGreaterThan(24);
    expect(Math.max(...counter.counts)).toBeLessThanOrEqual(101);
  });

  test('?ordering= is deduplicated and capped: thousands of terms are a quick 400, never a 500 (issue 10)', async () => {
    for (const count of [21, 1000, 2500]) {
      const answer = await get('path', `/articles/feed/?ordering=${Array(count).fill('id').join(',')}`);
      expect(answer.status, `${count} terms`).toBe(400);
      expect(JSON.parse(answer.body)).toEqual({
        detail: 'Too many ordering terms: at most 20 are accepted in "ordering".',
      });
    }
    // Twenty terms over two fields order like the two fields, and the walk goes on.
    const repeated = await get('path', `/articles/feed/?ordering=${'-rating,id,'.repeat(10).slice(0, -1)}`);
    const plain = await get('path', '/articles/feed/?ordering=-rating,id');
    expect(repeated.status).toBe(200);
    const first = JSON.parse(repeated.body) as { next: string; results: Array<{ id: number }> };
    expect(first.results).toEqual((JSON.parse(plain.body) as { results: unknown[] }).results);
    const next = new URL(first.next);
    expect((await get('path', `${next.pathname.replace(/^\/v1/, '')}${next.search}`)).status).toBe(200);
  });

  test('offsets beyond maxOffset answer 404 with a clear detail; up to it they are served', async () => {
    expect((await get('path', '/articles/offset/?offset=2000&limit=5')).status).toBe(200);
    const deep = await get('path', '/articles/offset/?offset=2001');
    expect(deep.status).toBe(404);
    expect(JSON.parse(deep.body)).toEqual({ detail: 'Offset 2001 is beyond the maximum offset of 2000.' });
    const page = await get('path', '/articles/?page=102');
    expect(JSON.parse(page.body)).toEqual({ detail: 'Offset 2020 is beyond the maximum offset of 2000.' });
    expect(TEST_ARTICLES).toBeGreaterThan(2020);
  });

  test.each(VERSIONING_NAMES)(
    '%s: an untrusted Host is 400 on every list, never a link to it',
    async (scheme) => {
      for (const path of LISTS) {
        const answer = await get(scheme, path, { host: 'evil.example' });
        expect(answer.status).toBe(400);
        expect(JSON.parse(answer.body).detail).toMatch(/^Invalid HTTP_HOST header: 'evil\.example'/);
        expect(answer.headers.link).toBeUndefined();
      }
    },
  );

  test.each(VERSIONING_NAMES)(
    '%s: X-Forwarded-Host is ignored without a trusted proxy; Vary names Accept',
    async (scheme) => {
      const demo = demos.get(scheme)!;
      for (const path of LISTS) {
        const headers = { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };
        const answer = await get(scheme, `${path}?page_size=1&limit=1`, headers);
        expect(answer.status).toBe(200);
        const body = JSON.parse(answer.body) as { next: string };
        expect(body.next.startsWith(`http://localhost:${demo.port}/`)).toBe(true);
        // Every target is on the demo's own origin, but v1's deprecation page (a fixed URL).
        const targets = [...String(answer.headers.link).matchAll(/<([^>]*)>/g)].map((m) => m[1]!);
        expect(targets.length).toBeGreaterThan(0);
        for (const target of targets) {
          if (target === DEMO_LIFECYCLE.v1!.link) continue;
          expect(target.startsWith(`http://localhost:${demo.port}/`), target).toBe(true);
        }
        expect(String(answer.headers.link)).not.toMatch(/evil/);
        expect(String(answer.headers.vary)).toMatch(/\bAccept\b/);
      }
      if (scheme === 'accept') {
        const refused = await get(scheme, '/articles/', { accept: 'application/json; version=v9' });
        expect(refused.status).toBe(406);
        expect(String(refused.headers.vary)).toMatch(/\bAccept\b/);
      }
    },
  );
});
