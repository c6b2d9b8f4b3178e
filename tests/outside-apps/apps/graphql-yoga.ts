// graphql-yoga on node:http, serving graphql-schema.ts.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { unmaskApiErrors } from '@pagewise/rest/graphql';
import { createSchema, createYoga, maskError } from 'graphql-yoga';
import { resolvers, typeDefs } from './graphql-schema.js';

const yoga = createYoga({
  schema: createSchema({ typeDefs, resolvers }),
  // Yoga masks every error that is not a GraphQLError, an invalid cursor included.
  maskedErrors: { maskError: unmaskApiErrors(maskError) }, // glue
});

const server = createServer(yoga);
server.listen(Number(process.env.PORT ?? 4000), '127.0.0.1', () => {
  console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`);
});
