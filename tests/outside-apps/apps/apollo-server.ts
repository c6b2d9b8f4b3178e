// Apollo Server's standalone server, serving graphql-schema.ts.
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { resolvers, typeDefs } from './graphql-schema.js';

const server = new ApolloServer({ typeDefs, resolvers });
const { url } = await startStandaloneServer(server, {
  listen: { host: '127.0.0.1', port: Number(process.env.PORT ?? 4000) },
});
console.log(url);
