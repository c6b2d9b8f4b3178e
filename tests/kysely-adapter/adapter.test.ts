import {
  type ColumnInfo,
  type ColumnKind,
  type DialectCapabilities,
  fromKysely,
  mysqlCapabilities,
  postgresCapabilities,
  sqliteCapabilities,
} from '@pagewise/kysely-adapter';
import { fromArray } from '@pagewise/memory-adapter';
import {
  ApiRequest,
  CursorPagination,
  type CursorPaginationOptions,
  type KeyTerm,
  NotFound,
  type OrderedQuery,
  parseOrdering,
} from '@pagewise/rest';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type DatabaseTarget,
  databaseTargets,
  describeDatabase,
  type TestDatabase,
  tableName,
} from '../support/databases.js';
import { DRF_VALUES, drfDataset, itemsDataset } from '../support/datasets.js';
import { createTable, dropTable, quote } from '../support/tables.js';

type Row = Record<string, unknown>;
const ORIGIN = 'http://testserver/';

/** All rows of a cursor walk (following `next`), page by page. */
async function walk(
  query: OrderedQuery<Row>,
  options: CursorPaginationOptions,
  url: string = ORIGIN,
): Promise<Row[][]> {
  const pages: Row[][] = [];
  let next: string | null = url;
  while (next !== null && pages.length < 200) {
    const pagination = new CursorPagination(options);
    pages.push((await pagination.paginateQueryset(query, new ApiRequest({ url: next }))) ?? []);
    next = pagination.getNextLink();
  }
  return pages;
}

async function firstNextLink(query: OrderedQuery<Row>, options: CursorPaginationOptions): Promise<string> {
  const pagination = new CursorPagination(options);
  await pagination.paginateQueryset(query, new ApiRequest({ url: ORIGIN }));
  return pagination.getNextLink()!;
}

function adapterCases(target: DatabaseTarget): void {
  const prefix = tableName(`pw_adapter_${target.name}`);
  const items = itemsDataset();
  const tables = {
    items: `${prefix}_items`,
    drf: `${prefix}_drf`,
    authors: `${prefix}_authors`,
    micro: `${prefix}_micro`,
    big: `${prefix}_big`,
  };
  let database: TestDatabase;
  const memory = () => fromArray(items.rows, { uniqueKey: 'id' });

  beforeAll(async () => {
    database = await target.open();
    await createTable(database, tables.items, items);
    await createTable(database, tables.drf, drfDataset());
    await createTable(database, tables.authors, {
      columns: { name: { type: 'text' } },
      rows: Array.from({ length: 7 }, (_, i) => ({
        id: i,
        name: ['Zoë', 'ada', 'Bob', 'ada', 'émile', 'Zed', 'bob'][i],
      })),
    });
  });
  afterAll(async () => {
    if (!database) return;
    for (const table of Object.values(tables)) await dropTable(database, table);
    await database.close();
  });

  it(`[${target.name}] selects the unique key and ordering fields it needs, and strips them from rows`, async () => {
    const query = fromKysely(database.db.selectFrom(tables.items).select(['name']), { db: database.db });
    const pages = await walk(query, { pageSize: 4, ordering: '-created' });
    const rows = pages.flat();
    expect(rows.every((r) => Object.keys(r).join() === 'name')).toBe(true);
    const expected = (await walk(memory(), { pageSize: 4, ordering: '-created' })).flat().map((r) => r.name);
    expect(rows.map((r) => r.name)).toEqual(expected);
  });

  it(`[${target.name}] orders by a selection alias through its expression`, async () => {
    const query = fromKysely(database.db.selectFrom(tables.items).select(['id', 'created as published']), {
      db: database.db,
    });
    const ids = (await walk(query, { pageSize: 5, ordering: '-published' })).flat().map((r) => Number(r.id));
    const expected = (await walk(memory(), { pageSize: 5, ordering: '-created' })).flat().map((r) => r.id);
    expect(ids).toEqual(expected);
  });

  it(`[${target.name}] pages a join with a qualified unique key`, async () => {
    const { db } = database;
    const joined = db
      .selectFrom(tables.items)
      .innerJoin(tables.authors, `${tables.authors}.id`, `${tables.items}.score`)
      .select([`${tables.items}.id`, `${tables.authors}.name as author`, `${tables.items}.created`]);
    const query = fromKysely(joined, { db, uniqueKey: `${tables.items}.id` });
    const options = { pageSize: 3, ordering: ['author', '-created'] };
    const ids = (await walk(query, options)).flat().map((r) => Number(r.id));
    const all = (await joined.execute()).map((r: Row) => ({
      ...r,
      id: Number(r.id),
      created: new Date(r.created as string),
    }));
    const expected = (await walk(fromArray(all, { uniqueKey: 'id' }), options)).flat().map((r) => r.id);
    expect(ids).toEqual(expected);
    expect(ids).toHaveLength(items.rows.filter((r) => r.score !== null).length);
  });

  it(`[${target.name}] capability flags change the SQL, never the pages`, async () => {
    const { db } = database;
    const own =
      database.dialect === 'postgres'
        ? postgresCapabilities
        : database.dialect === 'mysql'
          ? mysqlCapabilities
          : sqliteCapabilities;
    const variants: DialectCapabilities[] = [
      { ...own, name: `${own.name}-expanded`, rowValueSeek: false },
      { ...own, name: `${own.name}-leading`, rowValueLeadingBound: !own.rowValueLeadingBound },
      { ...own, name: `${own.name}-emulated`, nullsOrderingSyntax: false, indexNullsOrder: false },
      {
        ...own,
        name: `${own.name}-plain`,
        rowValueSeek: false,
        nullsOrderingSyntax: false,
        indexNullsOrder: false,
      },
    ];
    const orderings = [
      ['-score', 'name'],
      [{ field: 'score', direction: 'desc' as const, nulls: 'last' as const }],
      ['big', '-created'],
    ];
    for (const dialect of variants) {
      for (const ordering of orderings) {
        const query = fromKysely(db.selectFrom(tables.items).selectAll(), { db, dialect });
        const ids = (await walk(query, { pageSize: 4, ordering })).flat().map((r) => Number(r.id));
        const expected = (await walk(memory(), { pageSize: 4, ordering })).flat().map((r) => r.id);
        expect(ids, `${dialect.name} ${JSON.stringify(ordering)}`).toEqual(expected);
      }
    }
  });

  it(`[${target.name}] works without db, through the builder alone`, async () => {
    const builder = database.db.selectFrom(tables.items).selectAll();
    const options = { pageSize: 6, ordering: ['-score', 'big'] };
    const withoutDb = await walk(fromKysely(builder), options);
    expect(withoutDb).toEqual(await walk(fromKysely(builder, { db: database.db }), options));
    expect(await fromKysely(builder).count()).toEqual({ value: 23, exact: true });
  });

  it(`[${target.name}] counts without ORDER BY; estimates only where the planner can`, async () => {
    const { db } = database;
    const filtered = fromKysely(
      db.selectFrom(tables.items).selectAll().where('score', '>', 3).orderBy('id'),
      { db },
    );
    const expected = items.rows.filter(
      (r) => (r.score as number | null) !== null && (r.score as number) > 3,
    ).length;
    expect(await filtered.count()).toEqual({ value: expected, exact: true });
    const estimate = await fromKysely(db.selectFrom(tables.drf).selectAll(), { db }).count({
      estimate: true,
    });
    const filteredEstimate = await filtered.count({ estimate: true });
    if (database.dialect !== 'sqlite') {
      // Postgres' and MariaDB's planners (EXPLAIN): an estimate, said to be one.
      expect(estimate.exact).toBe(false);
      expect(estimate.value).toBeGreaterThan(0);
      // Parameters of the query's own WHERE reach the EXPLAIN too.
      expect(filteredEstimate.exact).toBe(false);
    } else {
      expect(estimate).toEqual({ value: 30, exact: true });
      expect(filteredEstimate).toEqual({ value: expected, exact: true });
    }
  });

  it(`[${target.name}] estimates a GROUP BY or DISTINCT only where the planner counts its groups`, async () => {
    const { db } = database;
    // 400 rows in 5 groups of an indexed column, which MariaDB reads by a loose index scan.
    const table = `${prefix}_groups`;
    await sql`create table ${sql.table(table)} (id integer primary key, k integer not null)`.execute(db);
    try {
      await sql`create index ${sql.id(`${table}_k`)} on ${sql.table(table)} (k)`.execute(db);
      await db
        .insertInto(table)
        .values(Array.from({ length: 400 }, (_, i) => ({ id: i + 1, k: i % 5 })))
        .execute();
      if (database.dialect === 'postgres') await sql`analyze ${sql.table(table)}`.execute(db);
      const grouped = fromKysely(db.selectFrom(table).select('k').groupBy('k'), { db });
      const distinct = fromKysely(db.selectFrom(table).select('k').distinct(), { db });
      for (const query of [grouped, distinct]) {
        const estimate = await query.count({ estimate: true });
        if (database.dialect === 'postgres') {
          // Postgres' Plan Rows of the aggregate: the groups it expects.
          expect(estimate.exact).toBe(false);
          expect(estimate.value).toBeLessThan(50);
        } else {
          // MariaDB's EXPLAIN has the rows it reads before grouping (401 by the index's range),
          // not the groups: the count is exact instead.
          expect(estimate).toEqual({ value: 5, exact: true });
        }
      }
    } finally {
      await dropTable(database, table);
    }
  });

  it(`[${target.name}] queries of one shape share compiled statements, never their values`, async () => {
    const { db } = database;
    const above = (min: number) =>
      fromKysely(db.selectFrom(tables.items).selectAll().where('score', '>', min), { db });
    const among = (ids: number[]) =>
      fromKysely(db.selectFrom(tables.items).selectAll().where('id', 'in', ids), { db });
    const scoreAbove = (min: number) =>
      items.rows.filter((r) => r.score !== null && (r.score as number) > min).length;
    for (const min of [3, 5, 0, 5]) {
      expect(await above(min).count()).toEqual({ value: scoreAbove(min), exact: true });
      const rows = (await walk(above(min), { pageSize: 2, ordering: 'score' })).flat();
      expect(rows.map((r) => Number(r.score))).toEqual(
        items.rows
          .filter((r) => r.score !== null && (r.score as number) > min)
          .map((r) => r.score)
          .sort((a, b) => (a as number) - (b as number)),
      );
    }
    expect(
      (await walk(among([1, 2, 3]), { pageSize: 2, ordering: 'id' })).flat().map((r) => Number(r.id)),
    ).toEqual([1, 2, 3]);
    expect(
      (await walk(among([7, 4]), { pageSize: 2, ordering: 'id' })).flat().map((r) => Number(r.id)),
    ).toEqual([4, 7]);
    const declared = fromKysely(db.selectFrom(tables.items).selectAll().where('score', '>', 3), {
      db,
      columns: { score: { kind: 'string', nullable: false } },
    });
    const order = [{ field: 'score', direction: 'asc' as const, nulls: 'last' as const }];
    await expect(declared.fetch({ order, after: [4], offset: 0, limit: 2 })).rejects.toThrow(/bound value/);
    expect(await above(3).fetch({ order, after: [4], offset: 0, limit: 1 })).toHaveLength(1);
  });

  it(`[${target.name}] a paginator's frozen ordering finds plans per query shape and options, never across them`, async () => {
    const { db } = database;
    // One array for every page, as `CursorPagination` passes it: plans are found by the array.
    const order: readonly KeyTerm[] = Object.freeze([
      Object.freeze({ field: 'score', direction: 'asc' as const, nulls: 'last' as const }),
      Object.freeze({ field: 'id', direction: 'asc' as const, nulls: 'last' as const, unique: true }),
    ]);
    const ids = async (query: OrderedQuery<Row>, after: readonly [number, number] | null) =>
      (await query.fetch({ order, after, offset: 0, limit: 50 })).map((r) => Number(r.row.id));
    const reference = (keep: (row: Row) => boolean) =>
      fromArray(items.rows.filter(keep), { uniqueKey: 'id' });
    const scoreAbove = (min: number) => (row: Row) => row.score !== null && (row.score as number) > min;
    const above = (min: number, options: { columns?: Record<string, ColumnKind | ColumnInfo> } = {}) =>
      fromKysely(db.selectFrom(tables.items).selectAll().where('score', '>', min), { db, ...options });
    for (const [min, after] of [
      [3, null],
      [1, [4, 0]],
      [3, [4, 6]],
      [0, null],
    ] as const) {
      expect(await ids(above(min), after), `score > ${min} after ${after}`).toEqual(
        await ids(reference(scoreAbove(min)), after),
      );
    }
    // Another WHERE clause, the same ordering array.
    const idAbove = fromKysely(db.selectFrom(tables.items).selectAll().where('id', '>', 15), { db });
    expect(await ids(idAbove, [3, 0])).toEqual(
      await ids(
        reference((row) => (row.id as number) > 15),
        [3, 0],
      ),
    );
    // The same shape with other plan options: `score` declared as text takes no number bound.
    const declared = above(3, { columns: { score: { kind: 'string', nullable: true } } });
    await expect(ids(declared, [4, 0])).rejects.toThrow(/bound value/);
    expect(await ids(above(3), [4, 0])).toEqual(await ids(reference(scoreAbove(3)), [4, 0]));
  });

  it(`[${target.name}] a paginator per request freezes equal terms anew: each finds the plan of its own terms, NULL placement and direction included`, async () => {
    const { db } = database;
    // A fresh frozen ordering per page, as a paginator made per request passes it.
    const fresh = (direction: 'asc' | 'desc', nulls: 'first' | 'last'): readonly KeyTerm[] =>
      Object.freeze([
        Object.freeze({ field: 'score', direction, nulls }),
        Object.freeze({ field: 'id', direction, nulls: 'last' as const, unique: true as const }),
      ]);
    const query = () => fromKysely(db.selectFrom(tables.items).selectAll(), { db });
    const reference = fromArray(items.rows, { uniqueKey: 'id' });
    const ids = async (
      q: OrderedQuery<Row>,
      order: readonly KeyTerm[],
      after: readonly [number | null, number] | null,
    ) => (await q.fetch({ order, after, offset: 0, limit: 5 })).map((r) => Number(r.row.id));
    // Alternating terms that differ only in NULL placement or direction never answer each other's plan.
    for (const [direction, nulls, after] of [
      ['asc', 'last', null],
      ['asc', 'last', [2, 0]],
      ['asc', 'first', null],
      ['asc', 'first', [null, 3]],
      ['desc', 'first', [4, 99]],
      ['asc', 'last', [null, 3]],
      ['desc', 'last', null],
      ['desc', 'first', null],
    ] as const) {
      expect(
        await ids(query(), fresh(direction, nulls), after),
        `${direction} nulls ${nulls} after ${after}`,
      ).toEqual(await ids(reference, fresh(direction, nulls), after));
    }
    // The same terms under other plan options: `score` declared as text takes no number bound.
    const declared = fromKysely(db.selectFrom(tables.items).selectAll(), {
      db,
      columns: { score: { kind: 'string', nullable: true } },
    });
    await expect(ids(declared, fresh('asc', 'last'), [4, 0])).rejects.toThrow(/bound value/);
    expect(await ids(query(), fresh('asc', 'last'), [4, 0])).toEqual(
      await ids(reference, fresh('asc', 'last'), [4, 0]),
    );
  });

  it(`[${target.name}] counts joins with clashing columns and DISTINCT; pages inside the builder's LIMIT/OFFSET`, async () => {
    const { db } = database;
    const joined = db
      .selectFrom(tables.items)
      .innerJoin(tables.authors, `${tables.authors}.id`, `${tables.items}.score`)
      .selectAll([tables.items, tables.authors]);
    const withScore = items.rows.filter((r) => r.score !== null);
    expect(await fromKysely(joined, { db }).count()).toEqual({ value: withScore.length, exact: true });
    const distinct = db.selectFrom(tables.items).select('score').distinct();
    expect(await fromKysely(distinct, { db }).count()).toEqual({
      value: new Set(items.rows.map((r) => r.score)).size,
      exact: true,
    });
    const limited = fromKysely(db.selectFrom(tables.items).selectAll().orderBy('id').limit(3).offset(2), {
      db,
    });
    const rows = await limited.fetch({ order: null, after: null, offset: 0, limit: 5 });
    expect(rows.map((r) => Number(r.row.id))).toEqual([3, 4, 5]);
    expect(await limited.count()).toEqual({ value: 3, exact: true });
  });

  it(`[${target.name}] reports the builder's ORDER BY, and orderBy replaces it`, async () => {
    const { db } = database;
    const builder = db
      .selectFrom(tables.items)
      .selectAll()
      .orderBy('created', 'desc')
      .orderBy('score', (ob) => ob.asc().nullsFirst());
    const query = fromKysely(builder, { db });
    expect(query.ordered).toBe(true);
    expect(query.ordering).toEqual([
      { field: 'created', direction: 'desc' },
      { field: 'score', direction: 'asc', nulls: 'first' },
    ]);
    const reordered = query.orderBy(parseOrdering(['name', '-id']));
    expect(reordered.ordering).toEqual(parseOrdering(['name', '-id']));
    const rows = await reordered.fetch({ order: null, after: null, offset: 0, limit: 23 });
    const expected = await memory()
      .orderBy(parseOrdering(['name', '-id']))
      .fetch({ order: null, after: null, offset: 0, limit: 23 });
    expect(rows.map((r) => Number(r.row.id))).toEqual(expected.map((r) => r.row.id));
  });

  it(`[${target.name}] without a unique key, falls back to DRF's position + offset cursors`, async () => {
    const query = fromKysely(database.db.selectFrom(tables.drf).selectAll(), {
      db: database.db,
      uniqueKey: null,
    });
    const pages = (await walk(query, { pageSize: 5, ordering: 'created' })).map((p) =>
      p.map((r) => Number(r.created)),
    );
    expect(pages).toEqual([
      [1, 1, 1, 1, 1],
      [1, 2, 3, 4, 4],
      [4, 4, 5, 6, 7],
      [7, 7, 7, 7, 7],
      [7, 7, 7, 8, 9],
      [9, 9, 9, 9, 9],
    ]);
    expect(pages.flat()).toEqual(DRF_VALUES);
  });

  it(`[${target.name}] a cursor for a bound that cannot fit the column is 404, not a database error`, async () => {
    const query = fromKysely(database.db.selectFrom(tables.items).selectAll(), { db: database.db });
    const order = [
      { field: 'big', direction: 'asc' as const, nulls: 'last' as const },
      { field: 'id', direction: 'asc' as const, nulls: 'last' as const, unique: true as const },
    ];
    for (const bound of [
      [2n ** 70n, 1],
      ['x', 1],
      [1n, 2n ** 64n],
    ]) {
      await expect(query.fetch({ order, after: bound, offset: 0, limit: 5 })).rejects.toThrow(
        /kysely adapter: bound value/,
      );
    }
    const next = await firstNextLink(query, { pageSize: 5, ordering: 'big' });
    expect((await walk(query, { pageSize: 5, ordering: 'big' }, next)).flat()).toHaveLength(18);
    const dateOrder = [{ field: 'created', direction: 'desc' as const, nulls: 'first' as const }, order[1]!];
    const tooEarly = new Date(-250_000_000_000_000);
    if (database.dialect === 'postgres') {
      await expect(
        query.fetch({ order: dateOrder, after: [tooEarly, 1], offset: 0, limit: 5 }),
      ).rejects.toThrow(/bound value/);
      const nameOrder = [{ field: 'name', direction: 'asc' as const, nulls: 'last' as const }, order[1]!];
      await expect(
        query.fetch({ order: nameOrder, after: ['a\u0000', 1], offset: 0, limit: 5 }),
      ).rejects.toThrow(/bound value/);
    }
    const pagination = new CursorPagination({ pageSize: 5, ordering: 'big' });
    const forged = next.replace(
      /cursor=[^&]+/,
      `cursor=${Buffer.from('{"k":"x","p":[1,2]}').toString('base64url')}`,
    );
    await expect(pagination.paginateQueryset(query, new ApiRequest({ url: forged }))).rejects.toThrow(
      new NotFound('Invalid cursor'),
    );
  });

  if (target.name !== 'sqlite') {
    it(`[${target.name}] timestamps finer than milliseconds keep exact positions`, async () => {
      const { db } = database;
      const type = database.dialect === 'postgres' ? 'timestamptz(6)' : 'datetime(6)';
      await sql
        .raw(`create table ${quote(database, tables.micro)} (id integer primary key, ts ${type} not null)`)
        .execute(db);
      // Same millisecond, different microseconds, ids running against time: a Date position would repeat or skip rows.
      const values = Array.from({ length: 9 }, (_, i) => ({
        id: 9 - i,
        ts: `2024-05-01 12:00:00.123${String(100 + i * 7).padStart(3, '0')}${database.dialect === 'postgres' ? '+00' : ''}`,
      }));
      await db.insertInto(tables.micro).values(values).execute();
      const query = fromKysely(db.selectFrom(tables.micro).select(['id']), { db });
      const forward = (await walk(query, { pageSize: 2, ordering: 'ts' })).flat().map((r) => Number(r.id));
      expect(forward).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1]);
      const backward = (await walk(query, { pageSize: 4, ordering: '-ts' })).flat().map((r) => Number(r.id));
      expect(backward).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
      const [first] = await query.fetch({
        order: [
          { field: 'ts', direction: 'asc', nulls: 'last' },
          { field: 'id', direction: 'asc', nulls: 'last', unique: true },
        ],
        after: null,
        offset: 0,
        limit: 1,
      });
      expect(first!.position).toEqual([
        // Postgres: `to_char` in UTC with its era, whatever the session's DateStyle.
        database.dialect === 'postgres' ? '2024-05-01 12:00:00.123100+00 AD' : '2024-05-01 12:00:00.123100',
        9,
      ]);
      const order = [{ field: 'ts', direction: 'asc' as const, nulls: 'last' as const }];
      for (const bad of ['yesterday', '2024-13-01T00:00:00.000000', '2024-05-01 12:00:00+16', new Date(0)]) {
        await expect(query.fetch({ order, after: [bad], offset: 0, limit: 2 })).rejects.toThrow(
          /bound value/,
        );
      }
    });
  }

  if (target.name === 'pglite') {
    it(`[${target.name}] exact timestamp positions are UTC, so the hour a DST change repeats stays ordered`, async () => {
      const { db } = database;
      // PGlite has one connection, so the session time zone applies to every statement below.
      await sql`set time zone 'America/New_York'`.execute(db);
      try {
        const table = `${tables.micro}_dst`;
        await sql
          .raw(`create table "${table}" (id integer primary key, ts timestamptz not null)`)
          .execute(db);
        // 05:30Z and 06:30Z are both 01:30 local on 2024-11-03: local text would tie them.
        const stamps = [
          '2024-11-03 06:30:00.000002+00',
          '2024-11-03 05:30:00.000001+00',
          '2024-11-03 06:30:00.000001+00',
          '2024-11-03 05:30:00.000002+00',
        ];
        await db
          .insertInto(table)
          .values(stamps.map((ts, i) => ({ id: i + 1, ts })))
          .execute();
        const query = fromKysely(db.selectFrom(table).select(['id']), { db });
        expect((await walk(query, { pageSize: 1, ordering: 'ts' })).flat().map((r) => Number(r.id))).toEqual([
          2, 4, 3, 1,
        ]);
        expect((await walk(query, { pageSize: 3, ordering: '-ts' })).flat().map((r) => Number(r.id))).toEqual(
          [1, 3, 4, 2],
        );
        await dropTable(database, table);
      } finally {
        await sql`set time zone 'UTC'`.execute(db);
      }
    });
  }

  if (target.name === 'postgres' || target.name === 'mariadb') {
    it(`[${target.name}] bigints beyond 2^53 are exact bigint positions`, async () => {
      const { db } = database;
      await sql
        .raw(`create table ${quote(database, tables.big)} (id integer primary key, big bigint not null)`)
        .execute(db);
      const base = 2n ** 60n;
      await db
        .insertInto(tables.big)
        .values(Array.from({ length: 10 }, (_, i) => ({ id: i + 1, big: String(base + BigInt(i % 5)) })))
        .execute();
      const query = fromKysely(db.selectFrom(tables.big).selectAll(), { db });
      const order = [
        { field: 'big', direction: 'desc' as const, nulls: 'first' as const },
        { field: 'id', direction: 'desc' as const, nulls: 'last' as const, unique: true as const },
      ];
      const [first] = await query.fetch({ order, after: null, offset: 0, limit: 1 });
      expect(first!.position).toEqual([base + 4n, 10]);
      const ids = (await walk(query, { pageSize: 3, ordering: '-big' })).flat().map((r) => Number(r.id));
      expect(ids).toEqual([10, 5, 9, 4, 8, 3, 7, 2, 6, 1]);
    });
  }
}

for (const target of databaseTargets()) {
  describeDatabase(target, 'kysely adapter', () => adapterCases(target));
}
