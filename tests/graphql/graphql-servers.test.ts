import { ApolloServer } from '@apollo/server';
import { connectionFromQuery, NotFound } from '@pagewise/core';
import { fromArray } from '@pagewise/memory-adapter';
import {
  connectionArgs,
  connectionTypeDefs,
  isClientApiError,
  pageInfoTypeDefs,
  unmaskApiErrors,
} from '@pagewise/rest/graphql';
import { buildSchema, graphql } from 'graphql';
import { createSchema, createYoga, maskError } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';

// Issue 31: graphql-yoga and Apollo Server hide errors that are not GraphQLErrors; a Pagewise error
// (an invalid cursor, a negative count) must reach the client with its message and
// extensions.code, while anything else stays masked. And a schema need not retype PageInfo and the
// connection types: Pagewise ships their SDL.

interface Article {
  id: number;
  title: string;
}
const articles: Article[] = Array.from({ length: 12 }, (_, i) => ({ id: i + 1, title: `Article ${i + 1}` }));

const typeDefs = /* GraphQL */ `
  ${pageInfoTypeDefs}
  type Article {
    id: Int!
    title: String!
  }
  ${connectionTypeDefs('Article')}
  type Query {
    articles(${connectionArgs}): ArticleConnection!
    broken: String
  }
`;

const resolvers = {
  Query: {
    articles: (_: unknown, args: { first?: number; after?: string; last?: number; before?: string }) =>
      connectionFromQuery(fromArray(articles, { uniqueKey: 'id' }), args, { ordering: 'id' }),
    broken: () => {
      throw new Error('connect ECONNREFUSED 10.0.0.7:5432');
    },
  },
};

interface Result {
  data?: { articles?: { edges: Array<{ node: { id: number } }> } | null } | null;
  errors?: Array<{ message: string; extensions?: { code?: string } }>;
}

const QUERIES = {
  page: '{ articles(first: 3) { edges { node { id } cursor } pageInfo { hasNextPage endCursor } } }',
  badCursor: '{ articles(first: 3, after: "not-a-cursor") { edges { node { id } } } }',
  negative: '{ articles(first: -1) { edges { node { id } } } }',
  broken: '{ broken }',
};

function expectAnswers(answers: Record<keyof typeof QUERIES, Result>): void {
  expect(answers.page.data?.articles?.edges.map((edge) => edge.node.id)).toEqual([1, 2, 3]);
  expect(answers.badCursor.errors).toEqual([
    expect.objectContaining({
      message: 'Invalid cursor',
      extensions: expect.objectContaining({ code: 'not_found' }),
    }),
  ]);
  expect(answers.negative.errors).toEqual([
    expect.objectContaining({
      message: 'first must be a non-negative integer.',
      extensions: expect.objectContaining({ code: 'invalid' }),
    }),
  ]);
  // Not a Pagewise error: the driver's message (the database's address) never reaches the client.
  expect(answers.broken.errors?.[0]?.message).not.toContain('ECONNREFUSED');
}

describe('Pagewise errors in GraphQL servers', () => {
  it('the shipped SDL builds a schema graphql-js accepts, and its connection answers the spec shape', async () => {
    const schema = buildSchema(typeDefs);
    const result = await graphql({
      schema,
      source: QUERIES.page,
      rootValue: { articles: resolvers.Query.articles.bind(null, null) },
    });
    expect(result.errors).toBeUndefined();
    expect(Object.keys(schema.getTypeMap())).toEqual(
      expect.arrayContaining(['PageInfo', 'ArticleConnection', 'ArticleEdge']),
    );
    expect(() => connectionTypeDefs('not a type')).toThrow(/GraphQL name/);
  });

  it('graphql-yoga: with unmaskApiErrors, a Pagewise error keeps its message and code, others stay masked', async () => {
    const yoga = createYoga({
      schema: createSchema({ typeDefs, resolvers }),
      maskedErrors: { maskError: unmaskApiErrors(maskError) },
      logging: false,
    });
    const ask = async (query: string): Promise<Result> => {
      const response = await yoga.fetch('http://localhost/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      });
      return (await response.json()) as Result;
    };
    const answers = Object.fromEntries(
      await Promise.all(
        Object.entries(QUERIES).map(async ([name, query]) => [name, await ask(query)] as const),
      ),
    ) as Record<keyof typeof QUERIES, Result>;
    expectAnswers(answers);
    expect(answers.broken.errors?.[0]?.message).toBe('Unexpected error.');
    // Without it Yoga hides the message, which is why the option exists.
    const plain = createYoga({ schema: createSchema({ typeDefs, resolvers }), logging: false });
    const hidden = (await (
      await plain.fetch('http://localhost/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: QUERIES.badCursor }),
      })
    ).json()) as Result;
    expect(hidden.errors?.[0]?.message).toBe('Unexpected error.');
  });

  it('Apollo Server: a Pagewise error keeps its message and extensions.code with no option at all', async () => {
    const server = new ApolloServer({ typeDefs, resolvers, includeStacktraceInErrorResponses: false });
    await server.start();
    try {
      const answers = {} as Record<keyof typeof QUERIES, Result>;
      for (const [name, query] of Object.entries(QUERIES)) {
        const response = await server.executeOperation({ query });
        answers[name as keyof typeof QUERIES] = (
          response.body as unknown as { singleResult: Result }
        ).singleResult;
      }
      expect(answers.page.data?.articles?.edges).toHaveLength(3);
      expect(answers.badCursor.errors?.[0]).toEqual(
        expect.objectContaining({
          message: 'Invalid cursor',
          extensions: expect.objectContaining({ code: 'not_found' }),
        }),
      );
      // Apollo masks nothing by itself: an app that masks in formatError keeps Pagewise's client errors.
      const masking = new ApolloServer({
        typeDefs,
        resolvers,
        includeStacktraceInErrorResponses: false,
        formatError: (formatted, error) =>
          isClientApiError(error)
            ? formatted
            : { message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } },
      });
      await masking.start();
      try {
        for (const [name, query] of Object.entries(QUERIES)) {
          const response = await masking.executeOperation({ query });
          answers[name as keyof typeof QUERIES] = (
            response.body as unknown as { singleResult: Result }
          ).singleResult;
        }
        expectAnswers(answers);
        expect(answers.broken.errors?.[0]?.message).toBe('Internal server error');
      } finally {
        await masking.stop();
      }
    } finally {
      await server.stop();
    }
  });

  it('unmaskApiErrors passes client errors only: a server-side ApiError is masked like any error', () => {
    const masked = new Error('masked');
    const unmask = unmaskApiErrors((_error: unknown, _message: string) => masked);
    const wrapped = (original: Error) =>
      Object.assign(new Error(original.message), { originalError: original });
    expect(unmask(wrapped(new NotFound('Invalid cursor')), 'x')).not.toBe(masked);
    expect(unmask(wrapped(Object.assign(new NotFound('x'), { status: 503 })), 'x')).toBe(masked);
    expect(unmask(wrapped(new Error('boom')), 'x')).toBe(masked);
  });

  // Issue 36 §2: an error that is not Pagewise's but holds a client ApiError as `originalError` was
  // unmasked with its own message. Only the client error itself goes through, and only its message.
  it('an outer error wrapping a client ApiError stays masked, in Yoga, in Apollo and in isClientApiError', async () => {
    const secret = 'outer SECRET-5f2c: password=hunter2';
    const wrapping = {
      Query: {
        ...resolvers.Query,
        broken: () => {
          throw Object.assign(new Error(secret), { originalError: new NotFound('Invalid cursor') });
        },
      },
    };
    const yoga = createYoga({
      schema: createSchema({ typeDefs, resolvers: wrapping }),
      maskedErrors: { maskError: unmaskApiErrors(maskError) },
      logging: false,
    });
    const yogaAnswer = (await (
      await yoga.fetch('http://localhost/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: QUERIES.broken }),
      })
    ).json()) as Result;
    expect(JSON.stringify(yogaAnswer)).not.toContain('SECRET');
    expect(yogaAnswer.errors?.[0]?.message).toBe('Unexpected error.');

    const apollo = new ApolloServer({
      typeDefs,
      resolvers: wrapping,
      includeStacktraceInErrorResponses: false,
      formatError: (formatted, error) =>
        isClientApiError(error) ? formatted : { message: 'Internal server error' },
    });
    await apollo.start();
    try {
      const response = await apollo.executeOperation({ query: QUERIES.broken });
      const result = (response.body as unknown as { singleResult: Result }).singleResult;
      expect(JSON.stringify(result)).not.toContain('SECRET');
      expect(result.errors?.[0]?.message).toBe('Internal server error');
      // The client error itself, as graphql-js wraps it, still goes through.
      const bad = await apollo.executeOperation({ query: QUERIES.badCursor });
      expect((bad.body as unknown as { singleResult: Result }).singleResult.errors?.[0]?.message).toBe(
        'Invalid cursor',
      );
    } finally {
      await apollo.stop();
    }
    const outer = Object.assign(new Error(secret), { originalError: new NotFound('Invalid cursor') });
    expect(isClientApiError(outer)).toBe(false);
    expect(isClientApiError(Object.assign(new Error(secret), { originalError: outer }))).toBe(false);
    expect(isClientApiError(Object.assign(new Error('Invalid cursor'), { originalError: outer }))).toBe(
      false,
    );
  });
});
