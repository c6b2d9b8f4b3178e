import { fromKysely } from '@pagewise/kysely-adapter';
import { fromArray } from '@pagewise/memory-adapter';
import { ApiRequest, CursorPagination, type OrderedQuery, type OrderTerm } from '@pagewise/rest';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type DatabaseTarget,
  databaseTarget,
  describeDatabase,
  type TestDatabase,
  tableName,
} from '../support/databases.js';
import { createTable, type Dataset, dropTable, normalizeRow } from '../support/tables.js';

type Row = Record<string, unknown>;

const COLUMNS: Dataset['columns'] = {
  a: { type: 'int', nullable: true },
  b: { type: 'text' },
  c: { type: 'date', nullable: true },
};
const DAY = 86_400_000;

const rowArb = fc.record({
  a: fc.option(fc.integer({ min: 0, max: 3 }), { freq: 4 }),
  b: fc.constantFrom('', 'a', 'B', 'b', 'é', 'a '),
  c: fc.option(
    fc.integer({ min: 0, max: 3 }).map((d) => new Date(Date.UTC(2024, 0, 1) + d * DAY)),
    { freq: 3 },
  ),
});

const termArb = (field: string) =>
  fc
    .record({
      field: fc.constant(field),
      direction: fc.constantFrom('asc', 'desc'),
      nulls: fc.constantFrom(undefined, 'first', 'last'),
    })
    .map(
      (t): OrderTerm =>
        t.nulls === undefined
          ? { field: t.field, direction: t.direction }
          : { field: t.field, direction: t.direction, nulls: t.nulls },
    );

const orderingArb = fc
  .shuffledSubarray(['a', 'b', 'c'], { minLength: 1, maxLength: 3 })
  .chain((fields) => fc.tuple(...fields.map(termArb)));

interface Transcript {
  forward: Array<{ next: string | null; previous: string | null; results: Row[] }>;
  backward: Array<{ next: string | null; previous: string | null; results: Row[] }>;
}

async function transcript(
  query: OrderedQuery<Row>,
  dataset: Dataset,
  ordering: OrderTerm[],
  pageSize: number,
): Promise<Transcript> {
  const visit = async (url: string) => {
    const pagination = new CursorPagination({ pageSize, ordering });
    const rows = (await pagination.paginateQueryset(query, new ApiRequest({ url }))) ?? [];
    return {
      next: pagination.getNextLink(),
      previous: pagination.getPreviousLink(),
      results: rows.map((r) => normalizeRow(dataset, r)),
    };
  };
  const forward = [await visit('http://testserver/')];
  while (forward.at(-1)!.next !== null && forward.length < 100)
    forward.push(await visit(forward.at(-1)!.next!));
  const backward = [];
  let previous = forward.at(-1)!.previous;
  while (previous !== null && backward.length < 100) {
    const page = await visit(previous);
    backward.push(page);
    previous = page.previous;
  }
  return { forward, backward };
}

function differential(target: DatabaseTarget, numRuns: number): void {
  const table = tableName(`pw_prop_${target.name}`);
  let database: TestDatabase;

  beforeAll(async () => {
    database = await target.open();
  });
  afterAll(async () => {
    if (!database) return;
    await dropTable(database, table);
    await database.close();
  });

  it(`[${target.name}] random tables, orderings and page sizes page exactly like the memory adapter`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(rowArb, { maxLength: 24 }),
        orderingArb,
        fc.integer({ min: 1, max: 7 }),
        async (rows, ordering, pageSize) => {
          const dataset: Dataset = { columns: COLUMNS, rows: rows.map((r, i) => ({ id: i + 1, ...r })) };
          await createTable(database, table, dataset);
          const actual = await transcript(
            fromKysely(database.db.selectFrom(table).selectAll(), { db: database.db }),
            dataset,
            ordering,
            pageSize,
          );
          const expected = await transcript(
            fromArray(dataset.rows, { uniqueKey: 'id' }),
            dataset,
            ordering,
            pageSize,
          );
          expect(actual).toEqual(expected);
          expect(actual.forward.flatMap((p) => p.results)).toHaveLength(rows.length);
        },
      ),
      { numRuns },
    );
  });

  // Deferred-join offsets (issue 38 §5): every offset window of a random table and ordering is the
  // memory adapter's under that ordering followed by the key in its last direction, the order the
  // key join breaks ties by (an ordering that ends unique is unchanged by it).
  it(`[${target.name}] deferredJoin: random tables, orderings and windows give the memory adapter's rows`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(rowArb, { maxLength: 24 }),
        orderingArb,
        fc.integer({ min: 0, max: 26 }),
        fc.option(fc.integer({ min: 0, max: 9 }), { freq: 5 }),
        async (rows, ordering, offset, limit) => {
          const dataset: Dataset = { columns: COLUMNS, rows: rows.map((r, i) => ({ id: i + 1, ...r })) };
          await createTable(database, table, dataset);
          const query = fromKysely(database.db.selectFrom(table).selectAll(), {
            db: database.db,
            deferredJoin: true,
          });
          const window = { order: null, after: null, offset, limit };
          const actual = await query.orderBy(ordering).fetch(window);
          const keyed: OrderTerm[] = [...ordering, { field: 'id', direction: ordering.at(-1)!.direction }];
          const expected = await fromArray(dataset.rows, { uniqueKey: 'id' }).orderBy(keyed).fetch(window);
          expect(actual.map((r) => normalizeRow(dataset, r.row))).toEqual(expected.map((r) => r.row));
        },
      ),
      { numRuns },
    );
  });
}

const sqlite = databaseTarget('sqlite');
describeDatabase(sqlite, 'differential property test', () => differential(sqlite, 100));

// Postgres itself when it is configured, otherwise the same dialect embedded.
const postgres = databaseTarget('postgres');
const pg = postgres.skipReason === null ? postgres : databaseTarget('pglite');
describeDatabase(pg, 'differential property test', () => differential(pg, 40));

// MariaDB takes the emulated paths (no row values, no NULLS FIRST/LAST): worth the extra runs when it is there.
const mariadb = databaseTarget('mariadb');
describeDatabase(mariadb, 'differential property test', () => differential(mariadb, 25));
