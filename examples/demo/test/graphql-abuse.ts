/** The largest body `/graphql` reads (its 64 KiB limit). */
export const GRAPHQL_BODY_LIMIT = 64 * 1024;

/**
 * Issue 29's abusive request: a JSON body just under 64 KiB holding as many aliases of
 * `articles(first: 100)` as fit, each spreading one fragment of edges and node fields (2,079
 * aliases: 207,900 edges, about 50 MB of answer, on the unbounded endpoint).
 */
export function abusiveGraphqlBody(limit = GRAPHQL_BODY_LIMIT): { body: string; aliases: number } {
  const fragment = 'fragment e on ArticleConnection{edges{cursor node{id title body publishedAt}}}';
  const field = (i: number) => `a${i}:articles(first:100){...e}`;
  let fields = '';
  let body = '';
  for (let n = 1; ; n += 1) {
    const more = `${fields}${n > 1 ? ' ' : ''}${field(n - 1)}`;
    const next = JSON.stringify({ query: `{${more}} ${fragment}` });
    if (Buffer.byteLength(next) > limit) return { body, aliases: n - 1 };
    fields = more;
    body = next;
  }
}

/**
 * The most one request may ask under the demo's limits: 10 root fields (the maximum), each
 * `articles(first: 100)` with every field of its edges and page info, a cost of 8,070 (of 10,000).
 */
export const LARGEST_ALLOWED_QUERY = `{ ${Array.from({ length: 10 }, (_, i) => `a${i}: articles(first: 100) { ...page }`).join(' ')} }
fragment page on ArticleConnection {
  edges { cursor node { id title body authorId publishedAt rating } }
  pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
}`;
