// The demo's /graphql (issue 13) over real HTTP: a Relay connection over articles, walked both
// ways, its cursors shared with the cursor feed, and bad requests answered as GraphQL over HTTP.
import { fromArray } from '@pagewise/memory-adapter';
import { execute, parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { demoSchema } from '../src/graphql.js';
import { abusiveGraphqlBody, LARGEST_ALLOWED_QUERY } from './graphql-abuse.js';
import { demoDatabases, feedIds, RowCounter, type RunningDemo, serveDemo, TEST_ARTICLES } from './harness.js';

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
interface GraphqlError {
  message: string;
  extensions?: Record<string, unknown>;
}
interface Answer {
  status: number;
  body: { data?: { articles: ArticlesPage } | null; errors?: GraphqlError[] };
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
  const counter = new RowCounter();

  beforeAll(async () => {
    handle = await database.open();
    const counted = { ...handle, db: handle.db.withPlugin(counter) };
    demo = await serveDemo(counted, 'path', { cursorSecret: 'graphql-secret' });
    expected = await feedIds(handle);
  }, 120_000);
  afterAll(async () => {
    await demo?.close();
    await handle?.cleanup();
  });

  async function post(variables: Record<string, unknown>, query = ARTICLES): Promise<Answer> {
    return postBody(JSON.stringify({ query, variables }));
  }

  async function postBody(body: string): Promise<Answer> {
    const response = await fetch(`${demo.base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    return { status: response.status, body: (await response.json()) as Answer['body'] };
  }

  /** The answer to `query`, and how many statements it ran and rows they returned. */
  async function measured(query: string, variables: Record<string, unknown> = {}) {
    counter.counts.length = 0;
    const answer = await post(variables, query);
    return { ...answer, statements: counter.counts.length, rows: counter.counts.reduce((a, b) => a + b, 0) };
  }

  /** Expects `answer` to be refused by `limit` before any resolver ran. */
  function expectRefused(
    answer: Answer & { statements: number },
    limit: string,
    message: RegExp,
    extensions: Record<string, unknown> = {},
  ) {
    expect(answer.status).toBe(400);
    expect(answer.body.data).toBeUndefined();
    expect(answer.body.errors).toHaveLength(1);
    expect(answer.body.errors![0]!.message).toMatch(message);
    expect(answer.body.errors![0]!.extensions).toEqual({
      code: 'QUERY_LIMIT_EXCEEDED',
      limit,
      ...extensions,
    });
    expect(answer.statements).toBe(0);
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

  test('totalCount is every article, counted only when the query selects it (issue 38)', async () => {
    const plain = await measured('{ articles(first: 5) { edges { cursor } } }');
    expect(plain.statements).toBe(1);
    const counted = await measured('{ articles(first: 5) { edges { cursor } totalCount } }');
    const fragment = await measured(
      '{ articles(first: 5) { ...total } } fragment total on ArticleConnection { totalCount }',
    );
    expect(plain.body.errors).toBeUndefined();
    expect(counted.body.data?.articles).toMatchObject({ totalCount: expected.length });
    expect(fragment.body.data?.articles).toMatchObject({ totalCount: expected.length });
    expect(plain.body.data?.articles).not.toHaveProperty('totalCount');
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

  test("issue 29's 64 KiB body of 2,079 aliased articles(first: 100) is refused before any resolver runs", async () => {
    const { body, aliases } = abusiveGraphqlBody();
    expect(aliases).toBeGreaterThan(2000);
    counter.counts.length = 0;
    const started = performance.now();
    const answer = await postBody(body);
    const elapsed = performance.now() - started;
    expectRefused(
      { ...answer, statements: counter.counts.length },
      'tokens',
      /^The document has more than 1000 tokens; at most 1000 are accepted\.$/,
      { maximum: 1000 },
    );
    expect(elapsed).toBeLessThan(1000);
  });

  test('at most 10 root fields (aliases count), each one statement; an 11th is refused', async () => {
    await post({ first: 1 }); // the adapter reads the catalog once, on first use
    const ten = await measured(LARGEST_ALLOWED_QUERY);
    expect(ten.status).toBe(200);
    expect(ten.body.errors).toBeUndefined();
    const data = ten.body.data as unknown as Record<string, ArticlesPage>;
    expect(Object.values(data).map((c) => c.edges.length)).toEqual(Array(10).fill(100));
    expect(ten.statements).toBe(10);
    expect(ten.rows).toBe(1010);

    const eleven = `{ ${Array.from({ length: 11 }, (_, i) => `a${i}: articles(first: 1) { pageInfo { hasNextPage } }`).join(' ')} }`;
    expectRefused(
      await measured(eleven),
      'rootFields',
      /^The operation selects 11 root fields; at most 10 are accepted \(aliases count\)\.$/,
      { maximum: 10, actual: 11 },
    );
    // Fragments and inline fragments are looked through.
    const spread = `{ ...f ... on Query { a: articles { pageInfo { hasNextPage } } } }
      fragment f on Query { ${Array.from({ length: 10 }, (_, i) => `b${i}: articles(first: 0) { pageInfo { hasNextPage } }`).join(' ')} }`;
    expectRefused(await measured(spread), 'rootFields', /selects 11 root fields/, {
      maximum: 10,
      actual: 11,
    });
  });

  test('a cost from first/last: lists count at their page size, clamped to 100, variables included', async () => {
    // 1 (articles) + 1 (edges) + 100 x (1 node + 99 fields) = 10,002 values: one too many.
    const fields = Array.from({ length: 99 }, (_, i) => `f${i}: id`).join(' ');
    const wide = `query Wide($n: Int = 100) { articles(first: $n) { edges { node { ${fields} } } } }`;
    const message =
      /^The operation may return about 10002 values; at most 10000 are accepted \(a list counts/;
    expectRefused(await measured(wide), 'cost', message, { maximum: 10000, actual: 10002 });
    expectRefused(await measured(wide, { n: 5000 }), 'cost', message, { maximum: 10000, actual: 10002 });
    const last = wide.replace('first: $n', 'last: $n');
    expectRefused(await measured(last, { n: 100 }), 'cost', message, { maximum: 10000, actual: 10002 });
    // No count: 20 edges.
    const unsized = wide.replace('($n: Int = 100)', '').replace('(first: $n)', '');
    const twenty = await measured(unsized);
    expect(twenty.status).toBe(200);
    expect(twenty.body.data!.articles.edges).toHaveLength(20);
    const fifty = await measured(wide, { n: 50 });
    expect(fifty.status).toBe(200);
    expect(fifty.body.data!.articles.edges).toHaveLength(50);
    expect(fifty.rows).toBe(51);
    // Counted as written: a fragment spread 40 times counts 40 times (the answer merges them).
    const spreads = `{ articles(first: 100) { edges { node { ${'...n '.repeat(40)} } } } }
      fragment n on Article { ${Array.from({ length: 3 }, (_, i) => `g${i}: id`).join(' ')} }`;
    expectRefused(await measured(spreads), 'cost', /may return about 12102 values/, {
      maximum: 10000,
      actual: 12102,
    });
  });

  test('at most 15 levels deep (the standard introspection query is 15)', async () => {
    const chain = (levels: number) =>
      `{ __type(name: "Article") ${'{ ofType '.repeat(levels - 2)}{ name }${' }'.repeat(levels - 2)} }`;
    const fifteen = await measured(chain(15));
    expect(fifteen.status).toBe(200);
    expectRefused(
      await measured(chain(16)),
      'depth',
      /^The operation is 16 levels deep; at most 15 are accepted\.$/,
      {
        maximum: 15,
        actual: 16,
      },
    );
    // Fragments doubling at each level are measured once each, not expanded: 2^30 fields as written.
    const doubling = Array.from(
      { length: 29 },
      (_, i) => `fragment t${i} on __Type { a: ofType { ...t${i + 1} } b: ofType { ...t${i + 1} } }`,
    ).join(' ');
    counter.counts.length = 0;
    const started = performance.now();
    const exponential = await post(
      {},
      `{ __type(name: "Article") { ...t0 } } ${doubling} fragment t29 on __Type { name }`,
    );
    expect(performance.now() - started).toBeLessThan(1000);
    expect(exponential.status).toBe(400);
    expect(exponential.body.errors?.map((e) => e.extensions)).toEqual([
      { code: 'QUERY_LIMIT_EXCEEDED', limit: 'depth', maximum: 15, actual: 31 },
      { code: 'QUERY_LIMIT_EXCEEDED', limit: 'cost', maximum: 10000, actual: 3 * 2 ** 29 - 1 },
    ]);
    // A fragment that spreads itself is measured once and refused by graphql-js's validation.
    const cycle = await measured('{ articles { ...c } } fragment c on ArticleConnection { ...c }');
    expect(cycle.status).toBe(400);
    expect(cycle.body.errors?.[0]?.extensions).toEqual({ code: 'GRAPHQL_VALIDATION_FAILED' });
    expect(cycle.statements).toBe(0);
    const { getIntrospectionQuery } = await import('graphql');
    const introspection = await measured(getIntrospectionQuery());
    expect(introspection.status).toBe(200);
    expect(introspection.body.errors).toBeUndefined();
  });

  test('plain requests stay fast while abusive ones are refused (4 at a time for 2 s)', async () => {
    const { body } = abusiveGraphqlBody();
    const rssBefore = process.memoryUsage().rss;
    const deadline = performance.now() + 2000;
    const statuses: number[] = [];
    const abusers = Array.from({ length: 4 }, async () => {
      do statuses.push((await postBody(body)).status);
      while (performance.now() < deadline);
    });
    let abusing = true;
    const done = Promise.all(abusers).then(() => {
      abusing = false;
    });
    const latencies: number[] = [];
    while (abusing) {
      const started = performance.now();
      const response = await fetch(`${demo.base}/v1/articles/feed/`);
      expect(response.status).toBe(200);
      await response.arrayBuffer();
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await done;
    expect(new Set(statuses)).toEqual(new Set([400]));
    expect(statuses.length).toBeGreaterThan(4);
    latencies.sort((a, b) => a - b);
    console.log(
      `plain feed during ${statuses.length} refused abusive requests: n=${latencies.length}, ` +
        `p50 ${latencies[latencies.length >> 1]!.toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms`,
    );
    expect(latencies.length).toBeGreaterThan(10);
    expect(latencies[latencies.length >> 1]).toBeLessThan(250);
    expect(latencies.at(-1)).toBeLessThan(1000);
    // Unbounded, four such requests took this process from about 200 MiB to 1.2 GiB.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(150 * 1024 * 1024);
  }, 120_000);

  test('every error carries extensions.code', async () => {
    const forged = await post({ first: 5, after: 'eyJrIjoiMSJ9' });
    expect(forged.body.errors?.[0]).toMatchObject({
      message: 'Invalid cursor',
      extensions: { code: 'NOT_FOUND' },
    });
    const negative = await post({ last: -1 });
    expect(negative.body.errors?.[0]?.extensions).toEqual({ code: 'INVALID' });
    const unknown = await post({}, '{ articles { nope } }');
    expect(unknown.body.errors?.[0]?.extensions).toEqual({ code: 'GRAPHQL_VALIDATION_FAILED' });
    const broken = await post({}, '{ articles(');
    expect(broken.body.errors?.[0]?.extensions).toEqual({ code: 'GRAPHQL_PARSE_FAILED' });
    const badVariable = await post({ first: 'ten' });
    expect(badVariable.status).toBe(400);
    expect(badVariable.body.errors?.[0]?.extensions).toEqual({ code: 'BAD_USER_INPUT' });
    const noQuery = await postBody('{}');
    expect(noQuery.body.errors).toEqual([
      { message: 'Must provide a query string.', extensions: { code: 'BAD_REQUEST' } },
    ]);
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

describe('/graphql totalCount', () => {
  test('the resolver asks for a count only when the query selects totalCount', async () => {
    const counts: unknown[] = [];
    const articles = Array.from({ length: 7 }, (_, i) => ({
      id: i + 1,
      title: `t${i}`,
      body: '',
      author_id: 1,
      published_at: new Date(Date.UTC(2024, 0, 1 + i)),
      rating: null,
    }));
    const query = () => {
      const inner = fromArray(articles, { uniqueKey: 'id' });
      return {
        adapter: inner.adapter,
        ordering: inner.ordering,
        ordered: inner.ordered,
        uniqueKey: inner.uniqueKey,
        description: inner.description,
        orderBy: (terms: Parameters<typeof inner.orderBy>[0]) => inner.orderBy(terms),
        fetch: (window: Parameters<typeof inner.fetch>[0]) => inner.fetch(window),
        count: (options?: unknown) => {
          counts.push(options);
          return inner.count();
        },
      };
    };
    const schema = demoSchema({ query: query as never });
    const run = async (source: string) => (await execute({ schema, document: parse(source) })).data;
    expect(await run('{ articles(first: 2) { edges { cursor } } }')).toEqual({
      articles: { edges: [{ cursor: expect.any(String) }, { cursor: expect.any(String) }] },
    });
    expect(counts).toHaveLength(0);
    expect(await run('{ articles(first: 2) { totalCount } }')).toEqual({ articles: { totalCount: 7 } });
    expect(
      await run('{ articles(first: 2) { ...t } } fragment t on ArticleConnection { totalCount }'),
    ).toEqual({
      articles: { totalCount: 7 },
    });
    expect(counts).toHaveLength(2);
  });
});
