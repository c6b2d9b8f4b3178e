// One GraphQL schema over SQLite, served by graphql-yoga (graphql-yoga.ts) and by Apollo Server
// (apollo-server.ts): the ready-made SDL of @pagewise/rest/graphql and a connection resolver.
import { type ConnectionArguments, connectionFromQuery } from '@pagewise/core';
import { fromKysely } from '@pagewise/kysely-adapter';
import { connectionArgs, connectionTypeDefs, pageInfoTypeDefs } from '@pagewise/rest/graphql';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';

interface Database {
  articles: { id: number; title: string; published_at: string };
}
const db = new Kysely<Database>({
  dialect: new SqliteDialect({ database: new SQLite(process.env.DATABASE_URL ?? 'articles.db') }),
});

export const typeDefs = /* GraphQL */ `
  ${pageInfoTypeDefs}
  type Article {
    id: Int!
    title: String!
    published_at: String!
  }
  ${connectionTypeDefs('Article')}
  type Query {
    articles(${connectionArgs}): ArticleConnection!
  }
`;

export const resolvers = {
  Query: {
    articles: (_parent: unknown, args: ConnectionArguments) =>
      connectionFromQuery(fromKysely(db.selectFrom('articles').selectAll(), { db }), args, {
        ordering: '-published_at',
        maxPageSize: 100,
      }),
  },
};
