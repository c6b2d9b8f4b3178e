// A Relay connection field served by graphql-js over Kysely (issue 13): walked forward with
// first/after and backward with last/before through `graphql()` execution, one statement per
// resolution, and a second of one row when a cursor's far side is asked about (issue 36 §6:
// hasPreviousPage from what the database holds), no COUNT, no OFFSET.
import { type Connection, type ConnectionArguments, connectionFromQuery } from '@pagewise/core';
import { fromKysely } from '@pagewise/kysely-adapter';
import {
  GraphQLBoolean,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  graphql,
} from 'graphql';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { databaseTarget, describeDatabase, type TestDatabase, tableName } from '../support/databases.js';
import { itemsDataset } from '../support/datasets.js';
import { createTable, dropTable, normalizeRow } from '../support/tables.js';

const items = itemsDataset();

function schemaOver(database: TestDatabase, table: string): GraphQLSchema {
  const Item = new GraphQLObjectType({
    name: 'Item',
    fields: { id: { type: new GraphQLNonNull(GraphQLInt) }, name: { type: GraphQLString } },
  });
  const PageInfo = new GraphQLObjectType({
    name: 'PageInfo',
    fields: {
      hasNextPage: { type: new GraphQLNonNull(GraphQLBoolean) },
      hasPreviousPage: { type: new GraphQLNonNull(GraphQLBoolean) },
      startCursor: { type: GraphQLString },
      endCursor: { type: GraphQLString },
    },
  });
  const ItemEdge = new GraphQLObjectType({
    name: 'ItemEdge',
    fields: { node: { type: new GraphQLNonNull(Item) }, cursor: { type: new GraphQLNonNull(GraphQLString) } },
  });
  const ItemConnection = new GraphQLObjectType({
    name: 'ItemConnection',
    fields: {
      edges: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(ItemEdge))) },
      pageInfo: { type: new GraphQLNonNull(PageInfo) },
    },
  });
  return new GraphQLSchema({
    query: new GraphQLObjectType({
      name: 'Query',
      fields: {
        items: {
          type: ItemConnection,
          args: {
            first: { type: GraphQLInt },
            after: { type: GraphQLString },
            last: { type: GraphQLInt },
            before: { type: GraphQLString },
          },
          resolve: (_root, args: ConnectionArguments) =>
            connectionFromQuery(
              fromKysely(database.db.selectFrom(table).selectAll(), { db: database.db }),
              args,
              {
                ordering: ['-created'],
                maxPageSize: 10,
              },
            ),
        },
      },
    }),
  });
}

const QUERY = `query Items($first: Int, $after: String, $last: Int, $before: String) {
  items(first: $first, after: $after, last: $last, before: $before) {
    edges { cursor node { id name } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;

type Page = Connection<{ id: number; name: string }>;

for (const name of ['sqlite', 'postgres'] as const) {
  const target = databaseTarget(name);
  describeDatabase(target, 'graphql-js Relay connection over Kysely', () => {
    const statements: string[] = [];
    const table = tableName(`pw_graphql_${name}`);
    let database: TestDatabase;
    let schema: GraphQLSchema;

    beforeAll(async () => {
      database = await target.open((event) => {
        if (event.level === 'query') statements.push(event.query.sql);
      });
      await createTable(database, table, items);
      schema = schemaOver(database, table);
    });
    afterAll(async () => {
      if (database === undefined) return;
      await dropTable(database, table);
      await database.close();
    });

    /** One `graphql()` execution, with the statements it ran against the table. */
    async function run(variables: ConnectionArguments) {
      const before = statements.length;
      const result = await graphql({ schema, source: QUERY, variableValues: { ...variables } });
      const ran = statements.slice(before).filter((s) => s.includes(table));
      return { result, ran, page: (result.data?.items ?? null) as Page | null };
    }

    it('walks forward with first/after and back with last/before, one statement a page and one row beyond a cursor', async () => {
      const expected = [...items.rows]
        .map((r) => normalizeRow(items, r))
        .sort((a, b) => Number(b.created) - Number(a.created) || Number(b.id) - Number(a.id))
        .map((r) => r.id);
      const forward: number[][] = [];
      let variables: ConnectionArguments = { first: 5 };
      for (;;) {
        const { result, ran, page } = await run(variables);
        expect(result.errors).toBeUndefined();
        // The page, then (with `after`) one row before it: what hasPreviousPage stands on.
        expect(ran.length).toBe(variables.after ? 2 : 1);
        for (const statement of ran) expect(statement).not.toMatch(/\bcount\(|\boffset\b/i);
        forward.push(page!.edges.map((e) => e.node.id));
        expect(page!.pageInfo.hasPreviousPage).toBe(forward.length > 1);
        if (!page!.pageInfo.hasNextPage) break;
        variables = { first: 5, after: page!.pageInfo.endCursor };
      }
      expect(forward.map((p) => p.length)).toEqual([5, 5, 5, 5, 3]);
      expect(forward.flat()).toEqual(expected);

      const backward: number[][] = [];
      variables = { last: 5 };
      for (;;) {
        const { result, ran, page } = await run(variables);
        expect(result.errors).toBeUndefined();
        expect(ran.length).toBe(variables.before ? 2 : 1);
        backward.push(page!.edges.map((e) => e.node.id));
        expect(page!.pageInfo.hasNextPage).toBe(backward.length > 1);
        if (!page!.pageInfo.hasPreviousPage) break;
        variables = { last: 5, before: page!.pageInfo.startCursor };
      }
      expect(backward.map((p) => p.length)).toEqual([5, 5, 5, 5, 3]);
      expect(backward.reverse().flat()).toEqual(expected);
    });

    it('clamps to maxPageSize and answers bad arguments as GraphQL errors, not crashes', async () => {
      const clamped = await run({ first: 500 });
      expect(clamped.page!.edges).toHaveLength(10);
      expect(clamped.page!.pageInfo.hasNextPage).toBe(true);
      const negative = await run({ first: -1 });
      expect(negative.result.errors?.[0]?.message).toBe('first must be a non-negative integer.');
      expect(negative.ran).toEqual([]);
      const forged = await run({ first: 2, after: 'not-a-cursor' });
      expect(forged.result.errors?.[0]?.message).toBe('Invalid cursor');
      expect(forged.result.data).toEqual({ items: null });
      expect(forged.ran).toEqual([]);
    });
  });
}
