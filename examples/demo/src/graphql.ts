import {
  type ConnectionArguments,
  connectionFromQuery,
  isApiError,
  type OrderedQuery,
  SERVER_ERROR_DETAIL,
  selectsField,
} from '@pagewise/rest';
import {
  type DocumentNode,
  type ExecutionResult,
  execute,
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
  parse,
  specifiedRules,
  validate,
} from 'graphql';
import { isDatabaseUnavailable, logDatabaseUnavailable, ServiceUnavailable } from './database-errors.js';
import {
  type ConnectionPageSizes,
  DEFAULT_GRAPHQL_LIMITS,
  type GraphqlLimits,
  graphqlLimitRules,
  tokenLimitError,
} from './graphql-limits.js';
import { type ArticleRow, isoTimestamp } from './serializers.js';

/** Where the schema reads articles. */
export interface DemoGraphqlOptions {
  readonly query: () => OrderedQuery<ArticleRow>;
  /** Signs the connection's cursors. @default null */
  readonly cursorSecret?: string | null;
}

const nonNull = <T extends GraphQLNullableType>(type: T) => new GraphQLNonNull(type);

/** `articles` without a count gives 20 edges; larger counts are clamped to 100. */
export const ARTICLE_PAGE_SIZES: ConnectionPageSizes = Object.freeze({
  defaultPageSize: 20,
  maxPageSize: 100,
});

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
      // Counted only when a query selects it (`selectsField` in the resolver below).
      totalCount: {
        type: nonNull(GraphQLInt),
        description: 'Articles in the whole connection (an exact count).',
      },
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
          // The cost limit counts the edges as the resolver fills them.
          extensions: { pageSizes: ARTICLE_PAGE_SIZES },
          resolve: (_root, args: ConnectionArguments, _context, info) =>
            connectionFromQuery(
              options.query(),
              args.first == null && args.last == null
                ? { ...args, first: ARTICLE_PAGE_SIZES.defaultPageSize }
                : args,
              {
                ordering: ['-published_at', '-id'],
                cursorSecret: options.cursorSecret ?? null,
                maxPageSize: ARTICLE_PAGE_SIZES.maxPageSize,
                count: selectsField(info, 'totalCount') ? 'exact' : 'none',
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

/** A request GraphQL never saw (no query, a body too large): one error with its code. */
function httpError(message: string, code: string, status: number): Response {
  return json({ errors: [{ message, extensions: { code } }] }, status);
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
      return httpError('variables must be JSON.', 'BAD_REQUEST', 400);
    }
  }
  if (!(request.headers.get('content-type') ?? '').toLowerCase().startsWith('application/json')) {
    return httpError('POST /graphql takes application/json.', 'UNSUPPORTED_MEDIA_TYPE', 415);
  }
  const text = await boundedText(request);
  if (text === null) return httpError(`The body is larger than ${MAX_BODY} bytes.`, 'PAYLOAD_TOO_LARGE', 413);
  try {
    const body: unknown = JSON.parse(text);
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new Error('not an object');
    return body as GraphqlParams;
  } catch {
    return httpError('The body must be a JSON object.', 'BAD_REQUEST', 400);
  }
}

/** How `/graphql` bounds and reports a request. */
export interface GraphqlHandlerOptions {
  /** Overrides of the limits each request is held to. @default DEFAULT_GRAPHQL_LIMITS */
  readonly limits?: Partial<GraphqlLimits>;
}

/** `errors` entries as graphql-js builds them, `extensions.code` added (or, with `replace`, set). */
function withCode(error: GraphQLError, code: string, replace = false): GraphQLError {
  if (error.extensions.code !== undefined && (!replace || error.extensions.code === code)) return error;
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
  // graphql-js copies a Pagewise error's own `extensions.code` (DRF's `not_found`); GraphQL's
  // convention, and this API's, is upper case.
  if (isApiError(original)) return withCode(error, original.code.toUpperCase(), true);
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

/** 400 with `errors`: the request was refused before anything ran. */
const refused = (errors: readonly GraphQLError[], code: string) =>
  json({ errors: errors.map((error) => withCode(error, code)) }, 400);

/**
 * `/graphql` over HTTP (GET and POST, GraphQL over HTTP's JSON): 200 with `data` once the
 * operation ran (resolver errors, like `Invalid cursor`, are in `errors` beside it), 400 when
 * the document does not parse, validate or stay within the limits. GET runs queries only.
 *
 * Each request is held to `limits` (`DEFAULT_GRAPHQL_LIMITS`) before any resolver runs: its
 * tokens are counted before parsing, its root fields, depth and cost before graphql-js's own
 * validation. Every error carries `extensions.code`.
 */
export function graphqlHandler(
  schema: GraphQLSchema,
  options: GraphqlHandlerOptions = {},
): (request: Request) => Promise<Response> {
  const limits: GraphqlLimits = Object.freeze({ ...DEFAULT_GRAPHQL_LIMITS, ...options.limits });
  return async (request) => {
    const params = await readParams(request);
    if (params instanceof Response) return params;
    const { query, variables, operationName } = params;
    if (typeof query !== 'string' || query === '') {
      return httpError('Must provide a query string.', 'BAD_REQUEST', 400);
    }
    if (variables != null && (typeof variables !== 'object' || Array.isArray(variables))) {
      return httpError('variables must be an object.', 'BAD_REQUEST', 400);
    }
    if (request.method === 'GET' && /^\s*mutation\b/.test(query)) {
      return httpError('Mutations need POST.', 'METHOD_NOT_ALLOWED', 405);
    }
    const variableValues = (variables ?? null) as Record<string, unknown> | null;
    const operation = typeof operationName === 'string' ? operationName : null;
    let document: DocumentNode;
    try {
      const tooLong = tokenLimitError(query, limits.maxTokens);
      if (tooLong) return refused([tooLong], 'QUERY_LIMIT_EXCEEDED');
      document = parse(query);
    } catch (error) {
      if (error instanceof GraphQLError) return refused([error], 'GRAPHQL_PARSE_FAILED');
      throw error;
    }
    const overLimits = validate(
      schema,
      document,
      graphqlLimitRules(limits, { variables: variableValues, operationName: operation }),
    );
    if (overLimits.length > 0) return refused(overLimits, 'QUERY_LIMIT_EXCEEDED');
    const invalid = validate(schema, document, specifiedRules);
    if (invalid.length > 0) return refused(invalid, 'GRAPHQL_VALIDATION_FAILED');
    const result: ExecutionResult = await execute({
      schema,
      document,
      variableValues,
      operationName: operation,
    });
    const errors = result.errors?.map(answerError);
    const body = { ...result, ...(errors ? { errors } : {}) };
    return json(body, 'data' in result && result.data !== undefined ? 200 : 400);
  };
}
