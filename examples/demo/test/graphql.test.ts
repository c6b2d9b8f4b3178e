// The demo's /graphql (issue 13) over real HTTP: a Relay connection over articles, walked both
// ways, its cursors shared with the cursor feed, and bad requests answered as GraphQL over HTTP.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { demoDatabases, feedIds, type RunningDemo, serveDemo, TEST_ARTICLES } from './harness.js';

interface PageInfo {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}
interface ArticlesPage {
  edges: Array<{ cursor: string; node: { id: number; publishedAt: string } }>;
  pageInfo: PageInfo;
}
interface Answer {
  status: number;
  body: { data?: { articles: ArticlesPage } | null; errors?: Array<{ message: string }> };
}

const ARTICLES = `query Articles($first: Int, $after: String, $last: Int, $before: String) {
  articles(first: $first, after: $after, last: $last, before: $before) {
    edges { cursor node { id publishedAt } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;

describe.each(demoDatabases())('/graphql on $name', (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;
  let demo: RunningDemo;
  let expected: number[];

  beforeAll(async () => {
    handle = await database.open();
    demo = await serveDemo(handle, 'path', { cursorSecret: 'graphql-secret' });
    expected = await feedIds(handle);
  }, 120_000);
  afterAll(async () => {
    await demo?.close();
    await handle?.cleanup();
  });

  async function post(variables: Record<string, unknown>, query = ARTICLES): Promise<Answer> {
    const response = await fetch(`${demo.base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    return { status: response.status, body: (await response.json()) as Answer['body'] };
  }

  test('first/after walks every article newest first; last/before walks them back', async () => {
    const forward: number[] = [];
    let answer = await post({ first: 100 });
    for (let page = 1; ; page += 1) {
      expect(answer.status).toBe(200);
      const articles = answer.body.data!.articles;
      forward.push(...articles.edges.map((e) => e.node.id));
      expect(articles.pageInfo.hasPreviousPage).toBe(page > 1);
      if (!articles.pageInfo.hasNextPage) break;
      answer = await post({ first: 100, after: articles.pageInfo.endCursor });
    }
    expect(forward).toEqual(expected);

    const backward: number[][] = [];
    answer = await post({ last: 100 });
    for (;;) {
      const articles = answer.body.data!.articles;
      backward.push(articles.edges.map((e) => e.node.id));
      expect(articles.pageInfo.hasNextPage).toBe(backward.length > 1);
      if (!articles.pageInfo.hasPreviousPage) break;
      answer = await post({ last: 100, before: articles.pageInfo.startCursor });
    }
    expect(backward.length).toBe(Math.ceil(TEST_ARTICLES / 100));
    expect(backward.reverse().flat()).toEqual(expected);
  });

  test('without a count: 20 edges; above 100: clamped to 100', async () => {
    expect((await post({})).body.data!.articles.edges).toHaveLength(20);
    expect((await post({ first: 5000 })).body.data!.articles.edges).toHaveLength(100);
  });

  test("an edge's cursor opens the cursor feed after it, and the feed's next link continues the connection", async () => {
    const first = (await post({ first: 20 })).body.data!.articles;
    const feed = (await (
      await fetch(`${demo.base}/v1/articles/feed/?cursor=${first.pageInfo.endCursor}`)
    ).json()) as { next: string; results: Array<{ id: number }> };
    expect(feed.results.map((r) => r.id)).toEqual(expected.slice(20, 40));
    const token = new URL(feed.next).searchParams.get('cursor');
    const third = (await post({ first: 20, after: token })).body.data!.articles;
    expect(third.edges.map((e) => e.node.id)).toEqual(expected.slice(40, 60));
  });

  test('bad cursors and counts are GraphQL errors; bad documents and bodies are 4xx', async () => {
    const forged = await post({ first: 5, after: 'eyJrIjoiMSJ9' });
    expect(forged.status).toBe(200);
    expect(forged.body.errors?.[0]?.message).toBe('Invalid cursor');
    expect(forged.body.data).toBeNull();
    const negative = await post({ last: -1 });
    expect(negative.body.errors?.[0]?.message).toBe('last must be a non-negative integer.');
    expect((await post({}, '{ articles { nope } }')).status).toBe(400);
    expect((await post({}, '{ articles(')).status).toBe(400);
    const text = await fetch(`${demo.base}/graphql`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    const huge = await fetch(`${demo.base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ articles { pageInfo { hasNextPage } } } #${'x'.repeat(100_000)}` }),
    });
    expect(huge.status).toBe(413);
    const notJson = await fetch(`${demo.base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '[1,',
    });
    expect(notJson.status).toBe(400);
  });

  test('GET runs queries', async () => {
    const url = new URL(`${demo.base}/graphql`);
    url.searchParams.set('query', ARTICLES);
    url.searchParams.set('variables', JSON.stringify({ first: 3 }));
    const response = await fetch(url);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Answer['body'];
    expect(body.data!.articles.edges.map((e) => e.node.id)).toEqual(expected.slice(0, 3));
  });
});
