// graphql-relay-js's own connection tests (src/connection/__tests__/arrayConnection-test.ts, 32
// cases), ported to connectionFromQuery over the memory adapter and SQLite (issue 36 §6). Nodes A-E
// are rows with ids 1-5 ordered by id; a letter's cursor is its edge's cursor in the whole
// connection.
//
// Of the 32 cases, 27 apply and run here. 5 do not: cursorForObjectInConnection (2; there is no
// such function, an edge's cursor names its row) and the 3 "undersized array slice" cases of
// connectionFromArraySlice, which describe a caller handing graphql-relay part of an array (here
// the database holds the rows). The other slice cases ask for the same edges as the arguments do
// over the whole array, and are run as such.
//
// Where connectionFromQuery answers otherwise, the case says so (`relay`): every such answer is one
// the Relay Cursor Connections spec allows (hasPreviousPage may be true with first/after when edges
// lie before `after`, hasNextPage with last/before when edges lie after `before`), and each true is
// checked against what the database holds. Relay's offset cursors "on the outside" (offsets -1 and
// 6) become cursors of rows since deleted before A and after E: after the one before A, nothing
// lies before the page, so hasPreviousPage is false (it was true, set from `after !== null`).
import {
  type Connection,
  type ConnectionArguments,
  connectionFromQuery,
  NotFound,
  type OrderedQuery,
  ValidationError,
} from '@pagewise/core';
import { fromKysely } from '@pagewise/kysely-adapter';
import { fromArray } from '@pagewise/memory-adapter';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTarget, type TestDatabase, tableName } from '../support/databases.js';

interface Letter {
  readonly id: number;
  readonly letter: string;
}

const LETTERS = 'ABCDE';
/** A-E, with the rows since deleted: id 0 before A, id 6 after E. */
const ALL_ROWS: Letter[] = Array.from({ length: 7 }, (_, id) => ({
  id,
  letter: id === 0 ? '<' : id === 6 ? '>' : LETTERS[id - 1]!,
}));
const ROWS = ALL_ROWS.slice(1, 6);

type Cursors = Record<'A' | 'B' | 'C' | 'D' | 'E' | 'deletedBeforeA' | 'deletedAfterE', string>;

/** A case: the arguments (cursors by name), the letters answered, and the page info's flags. */
interface RelayCase {
  readonly name: string;
  readonly args: (c: Cursors) => ConnectionArguments;
  readonly letters: string;
  readonly hasPreviousPage: boolean;
  readonly hasNextPage: boolean;
  /** graphql-relay's flags, where they differ (the spec allows both). */
  readonly relay?: { readonly hasPreviousPage: boolean; readonly hasNextPage: boolean };
}

const CASES: readonly RelayCase[] = [
  // connectionFromArray: basic slicing
  {
    name: 'returns all elements without filters',
    args: () => ({}),
    letters: 'ABCDE',
    hasPreviousPage: false,
    hasNextPage: false,
  },
  {
    name: 'respects a smaller first',
    args: () => ({ first: 2 }),
    letters: 'AB',
    hasPreviousPage: false,
    hasNextPage: true,
  },
  {
    name: 'respects an overly large first',
    args: () => ({ first: 10 }),
    letters: 'ABCDE',
    hasPreviousPage: false,
    hasNextPage: false,
  },
  {
    name: 'respects a smaller last',
    args: () => ({ last: 2 }),
    letters: 'DE',
    hasPreviousPage: true,
    hasNextPage: false,
  },
  {
    name: 'respects an overly large last',
    args: () => ({ last: 10 }),
    letters: 'ABCDE',
    hasPreviousPage: false,
    hasNextPage: false,
  },
  // connectionFromArray: pagination
  {
    name: 'respects first and after',
    args: (c) => ({ first: 2, after: c.B }),
    letters: 'CD',
    hasPreviousPage: true,
    hasNextPage: true,
    relay: { hasPreviousPage: false, hasNextPage: true },
  },
  {
    name: 'respects first and after with long first',
    args: (c) => ({ first: 10, after: c.B }),
    letters: 'CDE',
    hasPreviousPage: true,
    hasNextPage: false,
    relay: { hasPreviousPage: false, hasNextPage: false },
  },
  {
    name: 'respects last and before',
    args: (c) => ({ last: 2, before: c.D }),
    letters: 'BC',
    hasPreviousPage: true,
    hasNextPage: true,
    relay: { hasPreviousPage: true, hasNextPage: false },
  },
  {
    name: 'respects last and before with long last',
    args: (c) => ({ last: 10, before: c.D }),
    letters: 'ABC',
    hasPreviousPage: false,
    hasNextPage: true,
    relay: { hasPreviousPage: false, hasNextPage: false },
  },
  {
    name: 'respects first and after and before, too few',
    args: (c) => ({ first: 2, after: c.A, before: c.E }),
    letters: 'BC',
    hasPreviousPage: true,
    hasNextPage: true,
    relay: { hasPreviousPage: false, hasNextPage: true },
  },
  {
    name: 'respects first and after and before, too many',
    args: (c) => ({ first: 4, after: c.A, before: c.E }),
    letters: 'BCD',
    hasPreviousPage: true,
    hasNextPage: false,
    relay: { hasPreviousPage: false, hasNextPage: false },
  },
  {
    name: 'respects first and after and before, exactly right',
    args: (c) => ({ first: 3, after: c.A, before: c.E }),
    letters: 'BCD',
    hasPreviousPage: true,
    hasNextPage: false,
    relay: { hasPreviousPage: false, hasNextPage: false },
  },
  {
    name: 'respects last and after and before, too few',
    args: (c) => ({ last: 2, after: c.A, before: c.E }),
    letters: 'CD',
    hasPreviousPage: true,
    hasNextPage: true,
    relay: { hasPreviousPage: true, hasNextPage: false },
  },
  {
    name: 'respects last and after and before, too many',
    args: (c) => ({ last: 4, after: c.A, before: c.E }),
    letters: 'BCD',
    hasPreviousPage: false,
    hasNextPage: true,
    relay: { hasPreviousPage: false, hasNextPage: false },
  },
  {
    name: 'respects last and after and before, exactly right',
    args: (c) => ({ last: 3, after: c.A, before: c.E }),
    letters: 'BCD',
    hasPreviousPage: false,
    hasNextPage: true,
    relay: { hasPreviousPage: false, hasNextPage: false },
  },
  // connectionFromArray: cursor edge cases (offsets -1 and 6 as rows since deleted)
  {
    name: 'returns all elements if cursors are on the outside: before one past the end',
    args: (c) => ({ before: c.deletedAfterE }),
    letters: 'ABCDE',
    hasPreviousPage: false,
    hasNextPage: false,
  },
  {
    name: 'returns all elements if cursors are on the outside: after one before the start',
    args: (c) => ({ after: c.deletedBeforeA }),
    letters: 'ABCDE',
    hasPreviousPage: false,
    hasNextPage: false,
  },
  {
    name: 'no elements after one past the end (relay ignores an offset out of range): all lie before',
    args: (c) => ({ after: c.deletedAfterE }),
    letters: '',
    hasPreviousPage: true,
    hasNextPage: false,
    relay: { hasPreviousPage: false, hasNextPage: false },
  },
  {
    name: 'no elements before one before the start (relay ignores an offset out of range)',
    // Without first or last the spec's HasNextPage may say false; the edges are the first ones.
    args: (c) => ({ before: c.deletedBeforeA }),
    letters: '',
    hasPreviousPage: false,
    hasNextPage: false,
  },
  {
    name: 'returns no elements if cursors cross',
    args: (c) => ({ before: c.C, after: c.E }),
    letters: '',
    hasPreviousPage: true,
    hasNextPage: false,
    relay: { hasPreviousPage: false, hasNextPage: false },
  },
  // Its mirror, not in graphql-relay: last/before from a row since deleted after E.
  {
    name: 'last and before one past the end (since deleted): nothing lies after the page',
    args: (c) => ({ last: 2, before: c.deletedAfterE }),
    letters: 'DE',
    hasPreviousPage: true,
    hasNextPage: false,
  },
  // connectionFromPromisedArray
  {
    name: 'promised array: returns all elements without filters',
    args: () => ({}),
    letters: 'ABCDE',
    hasPreviousPage: false,
    hasNextPage: false,
  },
  {
    name: 'promised array: respects a smaller first',
    args: () => ({ first: 2 }),
    letters: 'AB',
    hasPreviousPage: false,
    hasNextPage: true,
  },
  // connectionFromArraySlice, as the same arguments over the whole array
  {
    name: 'slice: works with a just-right array slice',
    args: (c) => ({ first: 2, after: c.A }),
    letters: 'BC',
    hasPreviousPage: true,
    hasNextPage: true,
    relay: { hasPreviousPage: false, hasNextPage: true },
  },
  {
    name: 'slice: works with an oversized array slice ("left" side)',
    args: (c) => ({ first: 2, after: c.A }),
    letters: 'BC',
    hasPreviousPage: true,
    hasNextPage: true,
    relay: { hasPreviousPage: false, hasNextPage: true },
  },
  {
    name: 'slice: works with an oversized array slice ("right" side)',
    args: (c) => ({ first: 1, after: c.B }),
    letters: 'C',
    hasPreviousPage: true,
    hasNextPage: true,
    relay: { hasPreviousPage: false, hasNextPage: true },
  },
  {
    name: 'slice: works with an oversized array slice (both sides)',
    args: (c) => ({ first: 1, after: c.B }),
    letters: 'C',
    hasPreviousPage: true,
    hasNextPage: true,
    relay: { hasPreviousPage: false, hasNextPage: true },
  },
  // connectionFromPromisedArraySlice
  {
    name: 'promised slice: respects a smaller first',
    args: () => ({ first: 2 }),
    letters: 'AB',
    hasPreviousPage: false,
    hasNextPage: true,
  },
];

interface Backend {
  readonly name: string;
  /** The query over A-E, after ids 0 and 6 were deleted. */
  query(): OrderedQuery<Letter>;
  /** The query over every row, ids 0 and 6 still there. */
  before(): OrderedQuery<Letter>;
}

const OPTIONS = { ordering: 'id' } as const;

function relayCases(backend: () => Backend): void {
  let cursors: Cursors;

  beforeAll(async () => {
    const all = await connectionFromQuery(backend().before(), {}, OPTIONS);
    const of = (id: number) => all.edges.find((e) => e.node.id === id)!.cursor;
    cursors = {
      A: of(1),
      B: of(2),
      C: of(3),
      D: of(4),
      E: of(5),
      deletedBeforeA: of(0),
      deletedAfterE: of(6),
    };
  });

  /** The letters' edges as they stand in the whole connection. */
  const edgesOf = (letters: string) =>
    [...letters].map((letter) => ({
      node: ROWS.find((r) => r.letter === letter)!,
      cursor: cursors[letter as 'A'],
    }));

  it.each(CASES)('$name', async (relayCase) => {
    const connection: Connection<Letter> = await connectionFromQuery(
      backend().query(),
      relayCase.args(cursors),
      OPTIONS,
    );
    const edges = edgesOf(relayCase.letters);
    expect(connection).toEqual({
      edges,
      pageInfo: {
        startCursor: edges[0]?.cursor ?? null,
        endCursor: edges.at(-1)?.cursor ?? null,
        hasPreviousPage: relayCase.hasPreviousPage,
        hasNextPage: relayCase.hasNextPage,
      },
    });
    const args = relayCase.args(cursors);
    const { relay } = relayCase;
    if (relay === undefined) return;
    // Where graphql-relay says false and this says true, the spec allows it, and the database holds
    // the edges the flag promises: rows before `after`, rows after `before`.
    const ids = ROWS.map((r) => r.id);
    const idOf = (cursor: string | null | undefined) =>
      cursor == null ? null : [...Object.entries(cursors)].find(([, c]) => c === cursor)![0];
    const position = (name: string | null) =>
      name === null
        ? null
        : name === 'deletedBeforeA'
          ? 0
          : name === 'deletedAfterE'
            ? 6
            : LETTERS.indexOf(name) + 1;
    if (relay.hasPreviousPage !== relayCase.hasPreviousPage) {
      expect(relayCase.hasPreviousPage).toBe(true);
      const after = position(idOf(args.after));
      expect(after, 'only first/after may say so').not.toBeNull();
      expect(ids.some((id) => id <= after!)).toBe(true);
    }
    if (relay.hasNextPage !== relayCase.hasNextPage) {
      expect(relayCase.hasNextPage).toBe(true);
      const before = position(idOf(args.before));
      expect(before, 'only last/before may say so').not.toBeNull();
      expect(ids.some((id) => id >= before!)).toBe(true);
    }
  });

  it('throws an error if first < 0', async () => {
    const error = await connectionFromQuery(backend().query(), { first: -1 }, OPTIONS).catch((e) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toBe('first must be a non-negative integer.');
  });

  it('throws an error if last < 0', async () => {
    const error = await connectionFromQuery(backend().query(), { last: -1 }, OPTIONS).catch((e) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toBe('last must be a non-negative integer.');
  });

  it('invalid cursors are refused (graphql-relay ignores them and answers every edge)', async () => {
    const error = await connectionFromQuery(
      backend().query(),
      { before: 'invalid', after: 'invalid' },
      OPTIONS,
    ).catch((e) => e);
    expect(error).toBeInstanceOf(NotFound);
    expect((error as Error).message).toBe('Invalid cursor');
  });
}

describe('graphql-relay-js arrayConnection tests over the memory adapter', () => {
  relayCases(() => ({
    name: 'memory',
    query: () => fromArray(ROWS, { uniqueKey: 'id' }),
    before: () => fromArray(ALL_ROWS, { uniqueKey: 'id' }),
  }));
});

describe('graphql-relay-js arrayConnection tests over SQLite', () => {
  const table = tableName('pw_relay_letters');
  let database: TestDatabase;
  let deleted = false;

  beforeAll(async () => {
    database = await databaseTarget('sqlite').open();
    await sql`create table ${sql.table(table)} (id integer primary key, letter text not null)`.execute(
      database.db,
    );
    await database.db.insertInto(table).values(ALL_ROWS).execute();
  });
  afterAll(async () => {
    await sql`drop table if exists ${sql.table(table)}`.execute(database.db);
    await database.close();
  });

  const query = () =>
    fromKysely(database.db.selectFrom(table).select(['id', 'letter']), {
      db: database.db,
    }) as OrderedQuery<Letter>;
  relayCases(() => ({
    name: 'sqlite',
    query: () => {
      if (!deleted) throw new Error('the rows before A and after E are deleted first');
      return query();
    },
    before: () => query(),
  }));

  // The cursors are taken (the first beforeAll above) while ids 0 and 6 exist; then they go.
  beforeAll(async () => {
    await database.db.deleteFrom(table).where('id', 'in', [0, 6]).execute();
    deleted = true;
  });
});
