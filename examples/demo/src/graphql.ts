import {
  type ConnectionArguments,
  connectionFromQuery,
  isApiError,
  type OrderedQuery,
  SERVER_ERROR_DETAIL,
} from '@pagewise/core';
import {
  GraphQLBoolean,
  GraphQLError,
  GraphQLFloat,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  type GraphQLNullableType,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  graphql,
} from 'graphql';
import { isDatabaseUnavailable, logDatabaseUnavailable, ServiceUnavailable } from './database-errors.js';
import { type ArticleRow, isoTimestamp } from './serializers.js';

/** Where the schema reads articles. */
export interface DemoGraphqlOptions {
  readonly query: () => OrderedQuery<ArticleRow>;
  /** Signs the connection's cursors. @default null */
  readonly cursorSecret?: string | null;
}

const nonNull = <T extends GraphQLNullableType>(type: T) => new GraphQLNonNull(type);

/**
 * `articles(first, after, last, before)`: a Relay connection, newest first, 20 edges when no
 * count is given and at most 100. Cursors are the feed's (`/v1/articles/feed/`) tokens.
 */
export function demoSchema(options: DemoGraphqlOptions): GraphQLSchema {
  const Article = new GraphQLObjectType<ArticleRow>({
    name: 'Article',
    fields: {
      id: { type: nonNull(GraphQLInt) },
      title: { type: nonNull(GraphQLString) },
      body: { type: nonNull(GraphQLString) },
      authorId: { type: nonNull(GraphQLInt), resolve: (article) => article.author_id },
      publishedAt: { type: nonNull(GraphQLString), resolve: (article) => isoTimestamp(article.published_at) },
      rating: { type: GraphQLFloat },
    },
  });
  const PageInfo = new GraphQLObjectType({
    name: 'PageInfo',
    fields: {
      hasNextPage: { type: nonNull(GraphQLBoolean) },
      hasPreviousPage: { type: nonNull(GraphQLBoolean) },
      startCursor: { type: GraphQLString },
      endCursor: { type: GraphQLString },
    },
  });
  const ArticleEdge = new GraphQLObjectType({
    name: 'ArticleEdge',
    fields: { node: { type: nonNull(Article) }, cursor: { type: nonNull(GraphQLString) } },
  });
  const ArticleConnection = new GraphQLObjectType({
    name: 'ArticleConnection',
    fields: {
      edges: { type: nonNull(new GraphQLList(nonNull(ArticleEdge))) },
      pageInfo: { type: nonNull(PageInfo) },
    },
  });
  return new GraphQLSchema({
    query: new GraphQLObjectType({
      name: 'Query',
      fields: {
        articles: {
          type: nonNull(ArticleConnection),
          args: {
            first: { type: GraphQLInt },
            after: { type: GraphQLString },
            last: { type: GraphQLInt },
            before: { type: GraphQLString },
          },
          resolve: (_root, args: ConnectionArguments) =>
            connectionFromQuery(
              options.query(),
              args.first == null && args.last == null ? { ...args, first: 20 } : args,
              {
                ordering: ['-published_at', '-id'],
                cursorSecret: options.cursorSecret ?? null,
                maxPageSize: 100,
              },
            ),
        },
      },
    }),
  });
}

/** Largest request body `/graphql` reads. */
const MAX_BODY = 64 * 1024;

function json(body: unknown, status: number): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
}

/** The body as text, or `null` once it passes `MAX_BODY` bytes. */
async function boundedText(request: Request): Promise<string | null> {
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

interface GraphqlParams {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

async function readParams(request: Request): Promise<GraphqlParams | Response> {
  if (request.method === 'GET') {
    const search = new URL(request.url).searchParams;
    const variables = search.get('variables');
    try {
      return {
        query: search.get('query'),
        variables: variables === null ? null : JSON.parse(variables),
        operationName: search.get('operationName'),
      };
    } catch {
      return json({ errors: [{ message: 'variables must be JSON.' }] }, 400);
    }
  }
  if (!(request.headers.get('content-type') ?? '').toLowerCase().startsWith('application/json')) {
    return json({ errors: [{ message: 'POST /graphql takes application/json.' }] }, 415);
  }
  const text = await boundedText(request);
  if (text === null)
    return json({ errors: [{ message: `The body is larger than ${MAX_BODY} bytes.` }] }, 413);
  try {
    const body: unknown = JSON.parse(text);
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new Error('not an object');
    return body as GraphqlParams;
  } catch {
    return json({ errors: [{ message: 'The body must be a JSON object.' }] }, 400);
  }
}

/** `errors` entries as graphql-js builds them, `extensions.code` added. */
function withCode(error: GraphQLError, code: string): GraphQLError {
  if (error.extensions.code !== undefined) return error;
  return new GraphQLError(error.message, {
    nodes: error.nodes ?? null,
    source: error.source ?? null,
    positions: error.positions ?? null,
    path: error.path ?? null,
    extensions: { ...error.extensions, code },
  });
}

/**
 * An execution error as the client sees it. A resolver's `ApiError` (`Invalid cursor`, a negative
 * count) keeps its message, its code upper-cased; graphql-js's own request errors (a variable of
 * the wrong type) are `BAD_USER_INPUT`. Anything else is masked like REST's answers: the
 * database being unavailable is `SERVICE_UNAVAILABLE` with REST's 503 detail, the rest
 * `INTERNAL_SERVER_ERROR`; driver messages (which name the database's address) are only logged.
 */
function answerError(error: GraphQLError): GraphQLError {
  const original = error.originalError;
  if (original === undefined || original instanceof GraphQLError) return withCode(error, 'BAD_USER_INPUT');
  if (isApiError(original)) return withCode(error, original.code.toUpperCase());
  const where = `/graphql ${error.path?.join('.') ?? ''}`.trim();
  const unavailable = isDatabaseUnavailable(original);
  if (unavailable) logDatabaseUnavailable(where, original);
  else console.error(`pagewise demo: ${where} failed:`, original);
  return new GraphQLError(unavailable ? new ServiceUnavailable().detail : SERVER_ERROR_DETAIL, {
    nodes: error.nodes ?? null,
    path: error.path ?? null,
    extensions: { code: unavailable ? 'SERVICE_UNAVAILABLE' : 'INTERNAL_SERVER_ERROR' },
  });
}

/**
 * `/graphql` over HTTP (GET and POST, GraphQL over HTTP's JSON): 200 with `data` once the
 * operation ran (resolver errors, like `Invalid cursor`, are in `errors` beside it), 400 when
 * the document does not parse or validate. GET runs queries only. Errors of an operation that ran
 * are masked as the REST views mask them (`answerError`).
 */
export function graphqlHandler(schema: GraphQLSchema): (request: Request) => Promise<Response> {
  return async (request) => {
    const params = await readParams(request);
    if (params instanceof Response) return params;
    const { query, variables, operationName } = params;
    if (typeof query !== 'string' || query === '') {
      return json({ errors: [{ message: 'Must provide a query string.' }] }, 400);
    }
    if (variables != null && (typeof variables !== 'object' || Array.isArray(variables))) {
      return json({ errors: [{ message: 'variables must be an object.' }] }, 400);
    }
    if (request.method === 'GET' && /^\s*mutation\b/.test(query)) {
      return json({ errors: [{ message: 'Mutations need POST.' }] }, 405);
    }
    const result = await graphql({
      schema,
      source: query,
      variableValues: (variables ?? null) as Record<string, unknown> | null,
      operationName: typeof operationName === 'string' ? operationName : null,
    });
    if (!('data' in result) || result.data === undefined) return json(result, 400);
    return json({ ...result, ...(result.errors ? { errors: result.errors.map(answerError) } : {}) }, 200);
  };
}
