import {
  ConfigurationError,
  limitOffsetPage,
  type OrderedQuery,
  type OrderingInput,
  type OrderTerm,
  pageNumberPage,
  parseOrdering,
} from '@pagewise/core';
import { fromDrizzle } from '@pagewise/drizzle-adapter';
import { fromKysely } from '@pagewise/kysely-adapter';
import { fromArray } from '@pagewise/memory-adapter';
import { count, sql as drizzleSql, eq, gt } from 'drizzle-orm';
import { CamelCasePlugin, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, describeDatabase, type TestDatabase, tableName } from '../support/databases.js';
import { type DrizzleTestDatabase, drizzleTarget, type StatementLog } from '../support/drizzle-databases.js';
import { drizzleTable } from '../support/drizzle-tables.js';
import { createTable, type Dataset, dropTable } from '../support/tables.js';

// Deferred-join offsets (issue 38 §5): `deferredJoin: true` pages offsets by the page's keys
// first (`select <key> ... order by ... limit ? offset ?`, a derived table), then the rows by
// those keys. Its pages must be exactly what plain OFFSET returns, on every adapter and database:
// compared page by page at several depths with ties, NULLs first and last, mixed directions, joins,
// partial selections and the builder's own WHERE. Queries it cannot serve are refused.

type Row = Record<string, unknown>;

/** 61 articles in a shuffled id order: few distinct tiers, a nullable score, titles that repeat. */
function articles(): Dataset {
  const rows = Array.from({ length: 61 }, (_, k) => {
    const id = ((k * 17) % 61) + 1;
    return {
      id,
      author_id: (id % 4) + 1,
      score: id % 6 === 0 ? null : (id * 5) % 7,
      tier: id % 3,
      title: `t${(id * 7) % 13}`,
    };
  });
  return {
    columns: {
      author_id: { type: 'int' },
      score: { type: 'int', nullable: true },
      tier: { type: 'int' },
      title: { type: 'text' },
    },
    rows,
  };
}

/** Authors 1-3; articles of author 4 have none (a left join keeps them with a NULL name). */
function authors(): Dataset {
  return { columns: { name: { type: 'text' } }, rows: [1, 2, 3].map((id) => ({ id, name: `a${id}` })) };
}

const ARTICLES = articles();

/** Orderings that end with the key: each page is one answer, which both statements must give. */
const TOTAL: OrderingInput[] = [
  ['score', 'id'],
  ['-score', 'id'],
  [{ field: 'score', direction: 'asc', nulls: 'first' }, '-id'],
  [{ field: 'score', direction: 'desc', nulls: 'last' }, 'id'],
  ['-tier', 'title', '-id'],
  ['tier', '-score', 'id'],
  ['-id'],
];
/** Orderings with ties and no key: plain OFFSET may order ties either way; deferred pages break them by the key. */
const TIED: OrderingInput[] = ['tier', '-score', ['title', '-tier']];
/** (offset, limit) windows: the first page, the middle, the last rows, past the end, and no limit. */
const WINDOWS: Array<[number, number | null]> = [
  [0, 7],
  [5, 7],
  [13, 10],
  [40, 7],
  [55, 7],
  [60, 3],
  [100, 5],
  [21, null],
];

const window = (offset: number, limit: number | null) => ({ order: null, after: null, offset, limit });

/** Rows as plain values whatever the driver answered (bigint counts, numeric text). */
function plain(row: Row): Row {
  return Object.fromEntries(
    Object.entries(row).map(([k, v]) => [
      k,
      typeof v === 'bigint' || typeof v === 'string' ? normalize(v) : v,
    ]),
  );
}
function normalize(value: string | bigint): unknown {
  return typeof value === 'bigint' || /^-?\d+$/.test(value) ? Number(value) : value;
}

async function rowsOf(query: OrderedQuery<Row>, offset: number, limit: number | null): Promise<Row[]> {
  return (await query.fetch(window(offset, limit))).map((r) => plain(r.row));
}

/** `terms` with the key after them in the last term's direction: the order deferred pages break ties by. */
function withKey(terms: readonly OrderTerm[], key = 'id'): OrderTerm[] {
  return [...terms, { field: key, direction: terms.at(-1)?.direction ?? 'asc' }];
}

/**
 * Deferred pages against plain ones: equal, where the ordering ends with the key; where it has
 * ties, equal to plain OFFSET ordered by the key after the ordering, and position by position the
 * same ordering values as plain OFFSET of the ordering alone (which may order ties either way).
 */
async function expectSamePages(
  make: (deferred: boolean) => OrderedQuery<Row>,
  orderings: { total: readonly OrderingInput[]; tied: readonly OrderingInput[] },
  fields: readonly string[],
): Promise<number> {
  let compared = 0;
  for (const ordering of orderings.total) {
    const terms = parseOrdering(ordering);
    for (const [offset, limit] of WINDOWS) {
      const expected = await rowsOf(make(false).orderBy(terms), offset, limit);
      const actual = await rowsOf(make(true).orderBy(terms), offset, limit);
      expect(actual, `${JSON.stringify(ordering)} offset ${offset} limit ${limit}`).toEqual(expected);
      compared += actual.length;
    }
  }
  for (const ordering of orderings.tied) {
    const terms = parseOrdering(ordering);
    const seen: unknown[] = [];
    for (const [offset, limit] of [
      [0, 7],
      [7, 7],
      [14, 20],
      [34, 30],
    ] as const) {
      const actual = await rowsOf(make(true).orderBy(terms), offset, limit);
      expect(actual, `${JSON.stringify(ordering)} offset ${offset}`).toEqual(
        await rowsOf(make(false).orderBy(withKey(terms)), offset, limit),
      );
      const loose = await rowsOf(make(false).orderBy(terms), offset, limit);
      const values = (rows: Row[]) => rows.map((r) => terms.map((t) => r[t.field]));
      expect(values(actual)).toEqual(values(loose));
      seen.push(...actual.map((r) => JSON.stringify(fields.map((f) => r[f]))));
      compared += actual.length;
    }
    // Every row once across the walk: ties never straddle two pages twice.
    expect(new Set(seen).size).toBe(seen.length);
  }
  return compared;
}

interface Backend {
  readonly name: string;
  /** The articles, every column selected. */
  articles(deferred: boolean): OrderedQuery<Row>;
  /** Articles left-joined to their authors, filtered by a WHERE of the builder's own. */
  joined(deferred: boolean): OrderedQuery<Row>;
  /** Only title, score and tier: the key is not selected. */
  partial(deferred: boolean): OrderedQuery<Row>;
  /** The builder's own ORDER BY, no orderBy call. */
  ownOrder(deferred: boolean): OrderedQuery<Row>;
  /** The builder's own LIMIT/OFFSET (a slice), ordered by id. */
  sliced(deferred: boolean): OrderedQuery<Row>;
  /** Queries deferred joins refuse at construction, by what they hold. */
  refusedAtConstruction: Readonly<Record<string, () => unknown>>;
  /** deferredJoin over a key no primary key or unique index covers (`tier`). */
  notUnique(): OrderedQuery<Row>;
  /** Statements run since the last call. */
  statements(): string[];
}

function deferredCases(open: () => Backend): void {
  const backend = () => open();

  it('pages every ordering exactly as plain OFFSET, at every depth', async () => {
    const compared = await expectSamePages((d) => backend().articles(d), { total: TOTAL, tied: TIED }, [
      'id',
    ]);
    expect(compared).toBeGreaterThan(500);
  });

  it('runs the page as a join on a derived table of the keys, LIMIT/OFFSET inside it', async () => {
    backend().statements();
    const rows = await rowsOf(
      backend()
        .articles(true)
        .orderBy(parseOrdering(['-score', 'id'])),
      20,
      5,
    );
    expect(rows).toHaveLength(5);
    const pages = backend()
      .statements()
      .filter((s) => /pagewisekeys/.test(s));
    expect(pages).toHaveLength(1);
    expect(pages[0]).toMatch(/join \(select .+ limit .+ offset .+\) as ["`]?pagewisekeys["`]? on /i);
    // The plain query never goes through the keys.
    await rowsOf(
      backend()
        .articles(false)
        .orderBy(parseOrdering(['-score', 'id'])),
      20,
      5,
    );
    expect(
      backend()
        .statements()
        .filter((s) => /pagewisekeys/.test(s)),
    ).toEqual([]);
  });

  it('pages a join with a WHERE of its own as plain OFFSET does', async () => {
    const compared = await expectSamePages(
      (d) => backend().joined(d),
      {
        total: [
          ['author', 'id'],
          ['-score', '-id'],
          ['title', 'id'],
        ],
        tied: ['author'],
      },
      ['id'],
    );
    expect(compared).toBeGreaterThan(100);
    const rows = await rowsOf(
      backend()
        .joined(true)
        .orderBy(parseOrdering(['id'])),
      0,
      null,
    );
    expect(rows.map((r) => r.id)).toEqual(
      ARTICLES.rows
        .filter((r) => Number(r.tier) > 0)
        .map((r) => Number(r.id))
        .sort((a, b) => a - b),
    );
    // Article 7 is author 4's, who does not exist: the left join keeps it, with no name.
    expect(rows.find((r) => r.id === 7)).toEqual({ id: 7, title: 't10', score: 0, tier: 1, author: null });
  });

  it('pages a partial selection without its key, and rows carry only the selection', async () => {
    await expectSamePages((d) => backend().partial(d), { total: [], tied: [['-tier', 'title'], ['score']] }, [
      'title',
      'score',
      'tier',
    ]);
    for (const ordering of [
      ['-tier', 'title'],
      ['score', '-title'],
    ]) {
      const terms = parseOrdering(ordering);
      const rows = await rowsOf(backend().partial(true).orderBy(terms), 10, 10);
      for (const row of rows) expect(Object.keys(row).sort()).toEqual(['score', 'tier', 'title']);
    }
  });

  it("keeps the builder's own ORDER BY, and pages inside its own LIMIT/OFFSET", async () => {
    for (const [offset, limit] of WINDOWS) {
      expect(await rowsOf(backend().ownOrder(true), offset, limit)).toEqual(
        await rowsOf(backend().ownOrder(false), offset, limit),
      );
      expect(await rowsOf(backend().sliced(true), offset, limit)).toEqual(
        await rowsOf(backend().sliced(false), offset, limit),
      );
    }
    const inside = await rowsOf(backend().sliced(true), 0, null);
    expect(inside.map((r) => r.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 6));
  });

  it('page numbers and limit/offset: the same bodies, counts included', async () => {
    const ordering = parseOrdering(['-score', 'id']);
    for (const page of [1, 2, 5, 9, 'last']) {
      const url = `http://testserver/a?page=${page}`;
      const [plainPage, deferredPage] = await Promise.all(
        [false, true].map((d) =>
          pageNumberPage(backend().articles(d).orderBy(ordering), url, { pageSize: 7 }),
        ),
      );
      expect(deferredPage!.body(deferredPage!.rows.map(plain))).toEqual(
        plainPage!.body(plainPage!.rows.map(plain)),
      );
      expect(deferredPage!.count).toBe(61);
    }
    for (const search of ['?limit=6&offset=0', '?limit=6&offset=33', '?limit=9&offset=58']) {
      const url = `http://testserver/a${search}`;
      const [plainPage, deferredPage] = await Promise.all(
        [false, true].map((d) =>
          limitOffsetPage(backend().joined(d).orderBy(ordering), url, { maxLimit: 20 }),
        ),
      );
      expect(deferredPage!.body(deferredPage!.rows.map(plain))).toEqual(
        plainPage!.body(plainPage!.rows.map(plain)),
      );
    }
    expect(await backend().joined(true).count()).toEqual(await backend().joined(false).count());
    expect(await backend().articles(true).count({ estimate: true })).toEqual(
      await backend().articles(false).count({ estimate: true }),
    );
  });

  it('refuses, at construction, the queries whose keys do not give the rows: GROUP BY, DISTINCT, UNION, HAVING, window functions, aggregates, no key', () => {
    const refused = backend().refusedAtConstruction;
    expect(Object.keys(refused).length).toBeGreaterThanOrEqual(6);
    for (const [what, make] of Object.entries(refused)) {
      expect(make, what).toThrow(ConfigurationError);
      expect(make, what).toThrow(/deferredJoin/);
    }
  });

  it('refuses, at the first page, a key no primary key or unique index covers', async () => {
    const query = backend().notUnique();
    await expect(query.fetch(window(10, 5))).rejects.toThrow(ConfigurationError);
    await expect(query.fetch(window(10, 5))).rejects.toThrow(/deferredJoin.*"tier"/);
    // Counts do not page by key.
    expect((await query.count()).value).toBe(61);
  });
}

describe('[memory] deferred joins', () => {
  it('fromArray accepts deferredJoin and pages as without it', async () => {
    for (const ordering of [...TOTAL, ...TIED]) {
      const terms = parseOrdering(ordering);
      for (const [offset, limit] of WINDOWS) {
        const deferred = fromArray(ARTICLES.rows, { uniqueKey: 'id', deferredJoin: true }).orderBy(terms);
        const plainQuery = fromArray(ARTICLES.rows, { uniqueKey: 'id' }).orderBy(terms);
        expect(await rowsOf(deferred, offset, limit)).toEqual(await rowsOf(plainQuery, offset, limit));
      }
    }
  });
});

for (const target of databaseTargets()) {
  describeDatabase(target, 'deferred joins (kysely)', () => {
    const A = tableName(`h_deferred_k_${target.name}_articles`);
    const U = tableName(`h_deferred_k_${target.name}_authors`);
    let database: TestDatabase;
    const log: string[] = [];

    beforeAll(async () => {
      database = await target.open((event) => {
        if (event.level === 'query') log.push(event.query.sql);
      });
      await createTable(database, A, ARTICLES);
      await createTable(database, U, authors());
      if (database.dialect !== 'sqlite')
        await sql`create index ${sql.id(`${A}_score`)} on ${sql.table(A)} (score, id)`.execute(database.db);
    });
    afterAll(async () => {
      await dropTable(database, A);
      await dropTable(database, U);
      await database.close();
    });

    const options = (deferredJoin: boolean, uniqueKey: string | null = 'id') => ({
      db: database.db,
      uniqueKey,
      deferredJoin,
    });
    deferredCases(() => {
      const db = database.db;
      return {
        name: target.name,
        articles: (d) => fromKysely(db.selectFrom(A).selectAll(), options(d)),
        joined: (d) =>
          fromKysely(
            db
              .selectFrom(A)
              .leftJoin(U, `${U}.id`, `${A}.author_id`)
              .select([
                `${A}.id as id`,
                `${A}.title as title`,
                `${A}.score as score`,
                `${A}.tier as tier`,
                `${U}.name as author`,
              ])
              .where(`${A}.tier`, '>', 0),
            options(d),
          ),
        partial: (d) => fromKysely(db.selectFrom(A).select(['title', 'score', 'tier']), options(d)),
        ownOrder: (d) =>
          fromKysely(
            db.selectFrom(A).selectAll().orderBy('tier', 'desc').orderBy(sql`lower(title)`).orderBy('id'),
            options(d),
          ),
        sliced: (d) => fromKysely(db.selectFrom(A).selectAll().orderBy('id').limit(20).offset(5), options(d)),
        refusedAtConstruction: {
          'GROUP BY': () => fromKysely(db.selectFrom(A).select('tier').groupBy('tier'), options(true)),
          DISTINCT: () => fromKysely(db.selectFrom(A).select('tier').distinct(), options(true)),
          UNION: () =>
            fromKysely(db.selectFrom(A).selectAll().union(db.selectFrom(A).selectAll()), options(true)),
          HAVING: () => fromKysely(db.selectFrom(A).selectAll().having(sql`count(*)`, '>', 0), options(true)),
          'window function': () =>
            fromKysely(
              db.selectFrom(A).select((eb) => ['id', eb.fn.agg<number>('row_number').over().as('n')]),
              options(true),
            ),
          'window function in raw SQL': () =>
            fromKysely(
              db.selectFrom(A).select(['id', sql<number>`rank() over (order by score)`.as('n')]),
              options(true),
            ),
          aggregate: () =>
            fromKysely(
              db.selectFrom(A).select((eb) => eb.fn.countAll().as('n')),
              options(true),
            ),
          'no key': () => fromKysely(db.selectFrom(A).selectAll(), options(true, null)),
        },
        notUnique: () => fromKysely(db.selectFrom(A).selectAll(), options(true, 'tier')),
        statements: () => log.splice(0),
      };
    });

    it('without db, over a WITH of its own, and unordered (then by the key alone)', async () => {
      const { db } = database;
      const terms = parseOrdering(['-score', 'title', 'id']);
      const reference = (offset: number, limit: number | null) =>
        rowsOf(fromKysely(db.selectFrom(A).selectAll(), { db }).orderBy(terms), offset, limit);
      const cte = db
        .with('recent', (w) => w.selectFrom(A).selectAll())
        .selectFrom('recent')
        .selectAll();
      for (const [offset, limit] of WINDOWS) {
        const expected = await reference(offset, limit);
        expect(
          await rowsOf(
            fromKysely(db.selectFrom(A).selectAll(), { deferredJoin: true }).orderBy(terms),
            offset,
            limit,
          ),
        ).toEqual(expected);
        expect(
          await rowsOf(fromKysely(cte, { db, deferredJoin: true }).orderBy(terms), offset, limit),
        ).toEqual(expected);
      }
      const unordered = await rowsOf(fromKysely(db.selectFrom(A).selectAll(), options(true)), 0, null);
      expect(unordered.map((r) => r.id)).toEqual(Array.from({ length: 61 }, (_, i) => i + 1));
    });

    it('under a renaming plugin (CamelCasePlugin): the fields as the rows name them, no key column left', async () => {
      const camel = database.db.withPlugin(new CamelCasePlugin());
      const make = (deferredJoin: boolean) =>
        fromKysely(camel.selectFrom(A).selectAll(), { db: camel, deferredJoin }).orderBy(
          parseOrdering(['-authorId', 'title', 'id']),
        );
      for (const [offset, limit] of WINDOWS) {
        const rows = await rowsOf(make(true), offset, limit);
        expect(rows).toEqual(await rowsOf(make(false), offset, limit));
        for (const row of rows)
          expect(Object.keys(row).sort()).toEqual(['authorId', 'id', 'score', 'tier', 'title']);
      }
    });

    it('pages of every ordering ending with the key equal the memory reference', async () => {
      for (const ordering of TOTAL) {
        const terms = parseOrdering(ordering);
        for (const [offset, limit] of WINDOWS) {
          const actual = await rowsOf(
            fromKysely(database.db.selectFrom(A).selectAll(), options(true)).orderBy(terms),
            offset,
            limit,
          );
          const expected = await rowsOf(
            fromArray(ARTICLES.rows, { uniqueKey: 'id' }).orderBy(terms),
            offset,
            limit,
          );
          expect(actual, `${JSON.stringify(ordering)} ${offset}`).toEqual(expected);
        }
      }
    });
  });
}

for (const target of databaseTargets().map((t) => t.name)) {
  if (target === 'sqlite' || target === 'pglite' || target === 'postgres' || target === 'mariadb') {
    const drizzle = drizzleTarget(target);
    describeDatabase(drizzle, 'deferred joins (drizzle)', () => {
      const A = tableName(`h_deferred_d_${target}_articles`);
      const U = tableName(`h_deferred_d_${target}_authors`);
      let database: DrizzleTestDatabase;
      const logged: StatementLog = { statements: [] };
      // biome-ignore lint/suspicious/noExplicitAny: tables defined at run time.
      let a: any;
      // biome-ignore lint/suspicious/noExplicitAny: tables defined at run time.
      let u: any;

      beforeAll(async () => {
        database = await drizzle.open(undefined, logged);
        await createTable(database, A, ARTICLES);
        await createTable(database, U, authors());
        a = drizzleTable(database, A, ARTICLES);
        u = drizzleTable(database, U, authors());
      });
      afterAll(async () => {
        await dropTable(database, A);
        await dropTable(database, U);
        await database.close();
      });

      const paged = (select: unknown, deferredJoin: boolean, uniqueKey: string | null = 'id') =>
        fromDrizzle(select as never, { db: database.drizzle, uniqueKey, deferredJoin }) as OrderedQuery<Row>;
      deferredCases(() => {
        const db = database.drizzle;
        return {
          name: `drizzle-${target}`,
          articles: (d) => paged(db.select().from(a), d),
          joined: (d) =>
            paged(
              db
                .select({ id: a.id, title: a.title, score: a.score, tier: a.tier, author: u.name })
                .from(a)
                .leftJoin(u, eq(u.id, a.author_id))
                .where(gt(a.tier, 0)),
              d,
            ),
          partial: (d) => paged(db.select({ title: a.title, score: a.score, tier: a.tier }).from(a), d),
          ownOrder: (d) => paged(db.select().from(a).orderBy(drizzleSql`${a.tier} desc`, a.title, a.id), d),
          sliced: (d) => paged(db.select().from(a).orderBy(a.id).limit(20).offset(5), d),
          refusedAtConstruction: {
            'GROUP BY': () => paged(db.select({ tier: a.tier }).from(a).groupBy(a.tier), true),
            DISTINCT: () => paged(db.selectDistinct({ tier: a.tier }).from(a), true),
            UNION: () => paged(db.select().from(a).union(db.select().from(a)), true),
            HAVING: () => paged(db.select().from(a).having(drizzleSql`count(*) > 0`), true),
            'window function': () =>
              paged(
                db
                  .select({ id: a.id, n: drizzleSql<number>`row_number() over (order by ${a.score})` })
                  .from(a),
                true,
              ),
            aggregate: () => paged(db.select({ n: count() }).from(a), true),
            'no key': () => paged(db.select().from(a), true, null),
          },
          notUnique: () => paged(db.select().from(a), true, 'tier'),
          statements: () => logged.statements.splice(0),
        };
      });
    });
  }
}
