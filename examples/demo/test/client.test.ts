import {
  type FetchLike,
  iteratePages,
  iterateResults,
  PagewiseClientError,
  pageResults,
  parseLinkHeader,
} from '@pagewise/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { demoDatabases, feedIds, type RunningDemo, serveDemo, TEST_ARTICLES } from './harness.js';

/** An article as v1 serializes it (the fields these tests read). */
interface Article {
  readonly id: number;
  readonly title: string;
  readonly published_at: string;
}

/** An article as v2 serializes it. */
interface ArticleV2 {
  readonly id: number;
  readonly headline: string;
  readonly publishedAt: string;
}

/** The demo's three list styles, 100 per page so a walk is 30 requests. */
const FEEDS = [
  ['page number', '/v1/articles/?page_size=100'],
  ['limit/offset', '/v1/articles/offset/?limit=100'],
  ['cursor', '/v1/articles/feed/?page_size=100'],
] as const;

/** Fetch that counts what it sends. */
function countingFetch(): { fetch: FetchLike; sent: string[] } {
  const sent: string[] = [];
  return {
    sent,
    fetch: (input, init) => {
      sent.push(input);
      return fetch(input, init);
    },
  };
}

/** Rebuilds an answer with a new body and headers (the status is kept). */
function reanswer(response: Response, body: unknown, headers: Headers): Response {
  return new Response(JSON.stringify(body), { status: response.status, headers });
}

describe.each(demoDatabases())('@pagewise/client over the demo on $name', (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;
  let demo: RunningDemo;
  let signed: RunningDemo;
  let accept: RunningDemo;
  /** Article ids in the feeds' order: newest first, ties by id. */
  let expected: number[];

  beforeAll(async () => {
    handle = await database.open();
    demo = await serveDemo(handle, 'path');
    signed = await serveDemo(handle, 'path', { cursorSecret: 'client-test-secret' });
    accept = await serveDemo(handle, 'accept');
    expected = await feedIds(handle);
  }, 120_000);

  afterAll(async () => {
    await demo?.close();
    await signed?.close();
    await accept?.close();
    await handle?.cleanup();
  });

  test.each(FEEDS)('walks the %s feed: every article exactly once, in order', async (_style, path) => {
    const { fetch, sent } = countingFetch();
    const ids: number[] = [];
    for await (const article of iterateResults<Article>(`${demo.base}${path}`, { fetch }))
      ids.push(article.id);
    expect(ids).toHaveLength(TEST_ARTICLES);
    expect(new Set(ids).size).toBe(TEST_ARTICLES);
    expect(ids).toEqual(expected);
    expect(sent).toHaveLength(TEST_ARTICLES / 100);
  });

  test('walks the signed cursor feed at its default page size', async () => {
    const { fetch, sent } = countingFetch();
    const ids: number[] = [];
    for await (const article of iterateResults<Article>(`${signed.base}/v1/articles/feed/`, { fetch }))
      ids.push(article.id);
    expect(ids).toEqual(expected);
    expect(sent).toHaveLength(TEST_ARTICLES / 20);
  });

  test.each(FEEDS)(
    'walks the %s feed through the Link header alone, relative targets included',
    async (_style, path) => {
      let linked = 0;
      // Drops `next` from every body and makes the Link targets relative, so only the header leads on.
      const linkOnly: FetchLike = async (input, init) => {
        const response = await fetch(input, init);
        const { next, ...rest } = (await response.json()) as { next: string | null };
        const headers = new Headers(response.headers);
        const link = response.headers.get('link');
        const links = link === null ? [] : parseLinkHeader(link);
        const nextLink = links.find((entry) => entry.rel.includes('next'));
        expect(nextLink?.target ?? null).toBe(next);
        if (nextLink !== undefined) linked += 1;
        headers.delete('content-length');
        if (link !== null) {
          const relative = links.map((entry) => {
            const target = new URL(entry.target);
            return `<${target.pathname}${target.search}>; rel="${entry.rel.join(' ')}"`;
          });
          headers.set('link', relative.join(', '));
        }
        return reanswer(response, rest, headers);
      };
      const ids: number[] = [];
      for await (const article of iterateResults<Article>(`${demo.base}${path}`, { fetch: linkOnly }))
        ids.push(article.id);
      expect(ids).toEqual(expected);
      expect(linked).toBe(TEST_ARTICLES / 100 - 1);
    },
  );

  test('headers reach every page: Accept-header versioning serves v2 items throughout', async () => {
    const items: ArticleV2[] = [];
    const walk = iterateResults<ArticleV2>(`${accept.base}/articles/feed/?page_size=100`, {
      headers: { accept: 'application/json; version=v2' },
    });
    for await (const article of walk) items.push(article);
    expect(items.map((article) => article.id)).toEqual(expected);
    expect(items.every((article) => typeof article.headline === 'string' && !('title' in article))).toBe(
      true,
    );
  });

  test('pages carry the style fields: count for page number and limit/offset, none for cursor', async () => {
    for (const [style, path] of FEEDS) {
      let pages = 0;
      for await (const page of iteratePages<Article>(`${demo.base}${path}`)) {
        if (Array.isArray(page)) throw new Error('the demo answers objects');
        expect('count' in page ? page.count : undefined).toBe(style === 'cursor' ? undefined : TEST_ARTICLES);
        pages += 1;
        if (pages === 2) break;
      }
      expect(pages).toBe(2);
    }
  });

  test('a tampered cursor mid-walk rejects with 404 and the detail, after the pages before it', async () => {
    let answers = 0;
    // The third page's next link gets one character of its signed cursor changed.
    const tampering: FetchLike = async (input, init) => {
      const response = await fetch(input, init);
      answers += 1;
      if (answers !== 3) return response;
      const body = (await response.json()) as { next: string };
      const next = new URL(body.next);
      const cursor = next.searchParams.get('cursor')!;
      next.searchParams.set('cursor', cursor.slice(0, 5) + (cursor[5] === 'A' ? 'B' : 'A') + cursor.slice(6));
      return reanswer(
        response,
        { ...body, next: next.href },
        new Headers({ 'content-type': 'application/json' }),
      );
    };
    const ids: number[] = [];
    let failure: unknown;
    try {
      for await (const article of iterateResults<Article>(`${signed.base}/v1/articles/feed/`, {
        fetch: tampering,
      }))
        ids.push(article.id);
    } catch (error) {
      failure = error;
    }
    expect(ids).toEqual(expected.slice(0, 60));
    expect(failure).toBeInstanceOf(PagewiseClientError);
    expect(failure).toMatchObject({
      status: 404,
      code: 'http_error',
      detail: 'Invalid cursor',
      body: { detail: 'Invalid cursor' },
    });
    expect(new URL((failure as PagewiseClientError).url).pathname).toBe('/v1/articles/feed/');
    expect(answers).toBe(4);
  });

  test('a page number that vanishes mid-walk (articles deleted) rejects with 404 Invalid page.', async () => {
    const kept = expected.slice(0, 150);
    const removed = await handle.db.selectFrom('articles').selectAll().where('id', 'not in', kept).execute();
    const ids: number[] = [];
    let failure: unknown;
    try {
      for await (const page of iteratePages<Article>(`${demo.base}/v1/articles/?page_size=100`)) {
        ids.push(...pageResults(page).map((article) => article.id));
        // After the second page only 150 articles remain: page 3 no longer exists.
        if (ids.length === 200) await handle.db.deleteFrom('articles').where('id', 'not in', kept).execute();
      }
    } catch (error) {
      failure = error;
    } finally {
      for (let at = 0; at < removed.length; at += 500)
        await handle.db
          .insertInto('articles')
          .values(removed.slice(at, at + 500))
          .execute();
    }
    expect(ids).toEqual(expected.slice(0, 200));
    expect(failure).toMatchObject({ status: 404, code: 'http_error', detail: 'Invalid page.' });
    expect((failure as PagewiseClientError).url).toBe(`${demo.base}/v1/articles/?page=3&page_size=100`);
    const count = await handle.db
      .selectFrom('articles')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(TEST_ARTICLES);
  });

  test('aborting stops the walk: no request after the abort', async () => {
    const { fetch, sent } = countingFetch();
    const controller = new AbortController();
    let seen = 0;
    const walk = async () => {
      for await (const _article of iterateResults<Article>(`${demo.base}/v1/articles/feed/`, {
        fetch,
        signal: controller.signal,
      })) {
        seen += 1;
        if (seen === 30) controller.abort();
      }
    };
    await expect(walk()).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen).toBe(30);
    expect(sent).toHaveLength(2);
  });
});
