import type { KeyTerm } from '@pagewise/core';
import {
  AHEAD_COLUMN,
  type BoundParameter,
  type ColumnInfo,
  type DialectCapabilities,
  groupSegments,
  identifier,
  literal,
  lookAheadSlots,
  lookAheadValues,
  mergedStatement,
  mysqlCapabilities,
  orderByItems,
  node as part,
  planSegments,
  postgresCapabilities,
  type Segment,
  Slot,
  type SqlPart,
  type StatementBase,
  segmentStatement,
  sqliteCapabilities,
  stopPredicate,
} from '@pagewise/sql';
import {
  ColumnNode,
  type CompiledQuery,
  DummyDriver,
  Kysely,
  MysqlAdapter,
  MysqlIntrospector,
  MysqlQueryCompiler,
  type OperationNode,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  ReferenceNode,
  type SelectQueryNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import { lower } from './lower.js';
import { keysetNode, withIndexHint, withTieGroups, withWhere } from './statement-nodes.js';

// `@pagewise/sql`'s keyset statements lowered into Kysely nodes and compiled by Kysely's own
// compilers: the SQL each dialect receives.

const NO_BASE: StatementBase = { selections: [], indexHint: null, stop: null };

/** One segment's statement over `base`, as the adapter builds it. */
function compileSegment(
  base: SelectQueryNode,
  order: KeyTerm[],
  exprs: OperationNode[],
  nullable: boolean[],
  segment: Segment,
  withOffset: boolean,
  capabilities: DialectCapabilities,
  bound?: BoundParameter,
): SelectQueryNode {
  const statement = segmentStatement(
    NO_BASE,
    order,
    exprs.map(part),
    nullable,
    segment,
    withOffset,
    capabilities,
    bound,
  );
  return keysetNode(base, statement);
}

/** A run of segments as one `UNION ALL` statement over `base`. */
function compileMerged(
  base: SelectQueryNode,
  order: KeyTerm[],
  exprs: OperationNode[],
  keys: OperationNode[],
  run: readonly Segment[],
  withOffset: boolean,
  capabilities: DialectCapabilities,
): SelectQueryNode {
  const statement = mergedStatement(
    NO_BASE,
    order,
    exprs.map(part),
    keys.map(part),
    run,
    withOffset,
    capabilities,
  );
  return keysetNode(base, statement);
}

const asc = (field: string): KeyTerm => ({ field, direction: 'asc', nulls: 'last' });
const desc = (field: string): KeyTerm => ({ field, direction: 'desc', nulls: 'first' });
const id = (direction: 'asc' | 'desc'): KeyTerm => ({ field: 'id', direction, nulls: 'last', unique: true });

const kyselies = {
  postgres: new Kysely<Record<string, Record<string, unknown>>>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  }),
  sqlite: new Kysely<Record<string, Record<string, unknown>>>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  }),
  mysql: new Kysely<Record<string, Record<string, unknown>>>({
    dialect: {
      createAdapter: () => new MysqlAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new MysqlIntrospector(db),
      createQueryCompiler: () => new MysqlQueryCompiler(),
    },
  }),
};

function compile(
  dialect: keyof typeof kyselies,
  capabilities: DialectCapabilities,
  order: KeyTerm[],
  nullable: boolean[],
  bound: Array<string | number | null> | null,
  infos?: ColumnInfo[],
): string[] {
  const db = kyselies[dialect];
  const base = db.selectFrom('t').selectAll().toOperationNode();
  const exprs = order.map((t) => ReferenceNode.create(ColumnNode.create(t.field)));
  const cast = (i: number, parameter: SqlPart) =>
    infos?.[i] ? (capabilities.boundParameter?.(parameter, infos[i]) ?? parameter) : parameter;
  return planSegments(order, nullable, bound, capabilities).map((segment) => {
    const node = compileSegment(base, order, exprs, nullable, segment, false, capabilities, cast);
    return (db.getExecutor().compileQuery(node, { queryId: 'x' }) as CompiledQuery).sql;
  });
}

describe('planSegments + compileSegment', () => {
  it('uses a row-value comparison on Postgres and SQLite when directions agree', () => {
    // Postgres leads with a plain bound on the first term: partitions prune and postgres_fdw ships it.
    expect(
      compile('postgres', postgresCapabilities, [desc('created'), id('desc')], [false, false], ['t', 1]),
    ).toEqual([
      'select * from "t" where "created" <= $1 and ("created", "id") < ($2, $3) order by "created" desc, "id" desc limit $4',
    ]);
    expect(
      compile(
        'postgres',
        { ...postgresCapabilities, rowValueLeadingBound: false },
        [desc('created'), id('desc')],
        [false, false],
        ['t', 1],
      ),
    ).toEqual([
      'select * from "t" where ("created", "id") < ($1, $2) order by "created" desc, "id" desc limit $3',
    ]);
    expect(
      compile('sqlite', sqliteCapabilities, [asc('created'), id('asc')], [false, false], ['t', 1]),
    ).toEqual([
      'select * from "t" where ("created", "id") > (?, ?) order by "created" asc, "id" asc limit ?',
    ]);
  });

  it('uses the expanded form with a leading range bound on MariaDB and for mixed directions', () => {
    expect(
      compile('mysql', mysqlCapabilities, [desc('created'), id('desc')], [false, false], ['t', 1]),
    ).toEqual([
      'select * from `t` where `created` <= ? and (`created` < ? or (`created` = ? and `id` < ?)) order by `created` desc, `id` desc limit ?',
    ]);
    expect(
      compile(
        'postgres',
        postgresCapabilities,
        [asc('a'), desc('b'), id('desc')],
        [false, false, false],
        [1, 2, 3],
      ),
    ).toEqual([
      'select * from "t" where "a" >= $1 and not ("a" = $2 and not ("b" < $3 or ("b" = $4 and "id" < $5))) order by "a" asc, "b" desc, "id" desc limit $6',
    ]);
    expect(
      compile('postgres', postgresCapabilities, [desc('created'), id('asc')], [false, false], ['t', 1]),
    ).toEqual([
      'select * from "t" where "created" <= $1 and not ("created" = $2 and not ("id" > $3)) order by "created" desc, "id" asc limit $4',
    ]);
  });

  it('casts MySQL decimal and float bounds to the column type, every place the bound appears', () => {
    const decimal: ColumnInfo = { kind: 'decimal', nullable: false, type: 'decimal(40,30)' };
    const float: ColumnInfo = { kind: 'number', nullable: false, type: 'float' };
    const integer: ColumnInfo = { kind: 'integer', nullable: false, type: 'int(11)' };
    expect(
      compile(
        'mysql',
        mysqlCapabilities,
        [asc('v'), asc('f'), id('asc')],
        [false, false, false],
        ['1.5', 2, 3],
        [decimal, float, integer],
      ),
    ).toEqual([
      'select * from `t` where `v` >= cast(? as decimal(40,30)) and (`v` > cast(? as decimal(40,30)) or (`v` = cast(? as decimal(40,30)) and (`f` > cast(? as float) or (`f` = cast(? as float) and `id` > ?)))) order by `v` asc, `f` asc, `id` asc limit ?',
    ]);
  });

  it('never ORs a NULL test over the keyset: the NULL block is its own query', () => {
    const segments = compile(
      'postgres',
      postgresCapabilities,
      [asc('score'), id('asc')],
      [true, false],
      [5, 9],
    );
    expect(segments).toEqual([
      'select * from "t" where "score" >= $1 and ("score", "id") > ($2, $3) order by "score" asc, "id" asc limit $4',
      'select * from "t" where "score" is null order by "score" asc, "id" asc limit $1',
    ]);
    for (const sql of segments) expect(sql).not.toMatch(/ or "score" is null/i);
  });

  it('seeks inside the NULL block when the bound is NULL, then the values for NULLs first', () => {
    expect(
      compile('postgres', postgresCapabilities, [desc('score'), id('desc')], [true, false], [null, 9]),
    ).toEqual([
      'select * from "t" where "score" is null and "id" < $1 order by "score" desc, "id" desc limit $2',
      'select * from "t" where "score" is not null order by "score" desc, "id" desc limit $1',
    ]);
  });

  it("keeps the NULL term in a NULL block's ORDER BY on Postgres only, to range over the ordering's index", () => {
    // Postgres's planner takes `score IS NULL` as no constant: without `score` in the ORDER BY
    // it walks the primary key and filters (tests/plans shows the Index Cond it gets instead).
    const nullsLast: KeyTerm = { ...desc('score'), nulls: 'last' };
    expect(
      compile('postgres', postgresCapabilities, [nullsLast, id('desc')], [true, false], [null, 9]),
    ).toEqual([
      'select * from "t" where "score" is null and "id" < $1 order by "score" desc nulls last, "id" desc limit $2',
    ]);
    // SQLite and MySQL seek an index on `score IS NULL` as on an equality, the ORDER BY may drop it.
    expect(
      compile('sqlite', sqliteCapabilities, [desc('score'), id('desc')], [true, false], [null, 9]),
    ).toEqual([
      'select * from "t" where "score" is null and "id" < ? order by "id" desc limit ?',
      'select * from "t" where "score" is not null order by "score" desc, "id" desc limit ?',
    ]);
  });

  it('splits the first page where the dialect would put NULLs on the wrong side', () => {
    expect(compile('mysql', mysqlCapabilities, [asc('score'), id('asc')], [true, false], null)).toEqual([
      'select * from `t` where `score` is not null order by `score` asc, `id` asc limit ?',
      'select * from `t` where `score` is null order by `id` asc limit ?',
    ]);
    expect(compile('postgres', postgresCapabilities, [asc('score'), id('asc')], [true, false], null)).toEqual(
      ['select * from "t" order by "score" asc, "id" asc limit $1'],
    );
  });

  it('splits equal prefixes when a later term is nullable, and emulates NULLS LAST on MySQL', () => {
    const segments = compile(
      'mysql',
      mysqlCapabilities,
      [asc('a'), asc('b'), id('asc')],
      [false, true, false],
      [1, 2, 3],
    );
    expect(segments).toEqual([
      'select * from `t` where `a` = ? and `b` >= ? and (`b` > ? or (`b` = ? and `id` > ?)) order by `b` asc, `id` asc limit ?',
      'select * from `t` where `a` = ? and `b` is null order by `id` asc limit ?',
      'select * from `t` where `a` > ? order by `a` asc, `b` is null asc, `b` asc, `id` asc limit ?',
    ]);
  });
});

/** SQLite's statements for a window: segments split at ties and grouped into `UNION ALL` runs. */
function compileRuns(
  order: KeyTerm[],
  nullable: boolean[],
  bound: Array<string | number | null> | null,
  base = kyselies.sqlite.selectFrom('t').selectAll().toOperationNode(),
  keys?: OperationNode[],
): string[] {
  const db = kyselies.sqlite;
  const capabilities = sqliteCapabilities;
  const exprs = order.map((t) => ReferenceNode.create(ColumnNode.create(t.field)));
  const segments = planSegments(order, nullable, bound, capabilities, true);
  return groupSegments(segments, order, nullable, capabilities, true).map((run) => {
    const node =
      run.length === 1
        ? compileSegment(base, order, exprs, nullable, run[0]!, false, capabilities)
        : compileMerged(base, order, exprs, keys ?? exprs, run, false, capabilities);
    return (db.getExecutor().compileQuery(node, { queryId: 'x' }) as CompiledQuery).sql;
  });
}

describe('SQLite: the rows tied with the bound are a range of their own, merged into one statement', () => {
  it('splits every term of the bound into equal-prefix arms under one ORDER BY and LIMIT', () => {
    expect(compileRuns([desc('created'), id('desc')], [false, false], ['t', 1])).toEqual([
      'select * from "t" where "created" = ? and "id" < ? union all select * from "t" where "created" < ? order by "created" desc, "id" desc limit ?',
    ]);
    expect(compileRuns([asc('a'), desc('b'), id('desc')], [false, false, false], [1, 2, 3])).toEqual([
      'select * from "t" where "a" = ? and "b" = ? and "id" < ? union all select * from "t" where "a" = ? and "b" < ? union all select * from "t" where "a" > ? order by "a" asc, "b" desc, "id" desc limit ?',
    ]);
    // A single term is a range by itself.
    expect(compileRuns([id('desc')], [false], [1])).toEqual([
      'select * from "t" where "id" < ? order by "id" desc limit ?',
    ]);
  });

  it('merges the NULL block too where SQLite sorts NULLs where the ordering wants them', () => {
    const scoreDescNullsLast: KeyTerm = { ...desc('score'), nulls: 'last' };
    expect(compileRuns([scoreDescNullsLast, id('desc')], [true, false], [5, 7])).toEqual([
      'select * from "t" where "score" = ? and "id" < ? union all select * from "t" where "score" < ? union all select * from "t" where "score" is null order by "score" desc, "id" desc limit ?',
    ]);
  });

  it('reads a NULL block that needs NULLS LAST by a statement of its own, after the merged values', () => {
    expect(compileRuns([asc('score'), id('asc')], [true, false], [5, 7])).toEqual([
      'select * from "t" where "score" = ? and "id" > ? union all select * from "t" where "score" > ? order by "score" asc, "id" asc limit ?',
      'select * from "t" where "score" is null order by "id" asc limit ?',
    ]);
    // A first page: the values, then the NULL block, each its own statement as before.
    expect(compileRuns([asc('score'), id('asc')], [true, false], null)).toEqual([
      'select * from "t" where "score" is not null order by "score" asc, "id" asc limit ?',
      'select * from "t" where "score" is null order by "id" asc limit ?',
    ]);
  });

  it('keeps the WITH at the head, where it serves every arm, and orders by the columns of the result', () => {
    const base = kyselies.sqlite
      .with('recent', (db) => db.selectFrom('t').selectAll().where('kind', '=', 'a'))
      .selectFrom('recent')
      .select(['title'])
      .select((eb) => eb.ref('created').as('pagewise0'))
      .toOperationNode();
    const keys = [
      ReferenceNode.create(ColumnNode.create('pagewise0')),
      ReferenceNode.create(ColumnNode.create('id')),
    ];
    expect(compileRuns([desc('created'), id('desc')], [false, false], ['t', 1], base, keys)).toEqual([
      'with "recent" as (select * from "t" where "kind" = ?) select "title", "created" as "pagewise0" from "recent" where "created" = ? and "id" < ? union all select "title", "created" as "pagewise0" from "recent" where "created" < ? order by "pagewise0" desc, "id" desc limit ?',
    ]);
  });

  it('leaves other dialects one statement per segment, split at no tie', () => {
    const order = [asc('score'), id('asc')];
    const segments = planSegments(order, [true, false], [5, 7], postgresCapabilities);
    // The values past the bound (one keyset predicate), then the NULL block.
    expect(segments.map((s) => s.keyset)).toEqual([0, null]);
    expect(groupSegments(segments, order, [true, false], postgresCapabilities, false)).toEqual(
      segments.map((segment) => [segment]),
    );
  });
});

describe('withIndexHint', () => {
  it("names the index after the table and its alias, MySQL's place for a hint", () => {
    const db = kyselies.mysql;
    const hinted = (node: ReturnType<ReturnType<typeof db.selectFrom>['toOperationNode']>) =>
      (
        db
          .getExecutor()
          .compileQuery(withIndexHint(node, 'items_score_id'), { queryId: 'x' }) as CompiledQuery
      ).sql;
    expect(hinted(db.selectFrom('items').selectAll().where('score', 'is', null).toOperationNode())).toBe(
      'select * from `items` force index (`items_score_id`) where `score` is null',
    );
    expect(hinted(db.selectFrom('items as i').select('i.id').toOperationNode())).toBe(
      'select `i`.`id` from `items` as `i` force index (`items_score_id`)',
    );
  });
});

describe('stopPredicate', () => {
  /** The WHERE of a window before `nulls`' bound, with no near bound. */
  function before(
    dialect: keyof typeof kyselies,
    capabilities: DialectCapabilities,
    order: KeyTerm[],
    nullable: boolean[],
    nulls: boolean[],
  ): string {
    const db = kyselies[dialect];
    const exprs = order.map((t) => ReferenceNode.create(ColumnNode.create(t.field)));
    const node = withWhere(db.selectFrom('t').selectAll().toOperationNode(), [
      lower(stopPredicate(order, exprs.map(part), nullable, nulls, capabilities)),
    ]);
    return (db.getExecutor().compileQuery(node, { queryId: 'x' }) as CompiledQuery).sql;
  }

  it('bounds the far end as an index range: the first term led by <= or >=, its tie negated on Postgres', () => {
    expect(
      before('postgres', postgresCapabilities, [desc('created'), id('desc')], [false, false], [false, false]),
    ).toBe('select * from "t" where "created" >= $1 and not ("created" = $2 and not ("id" > $3))');
    expect(
      before(
        'mysql',
        mysqlCapabilities,
        [asc('a'), desc('b'), id('desc')],
        [false, false, false],
        [false, false, false],
      ),
    ).toBe(
      'select * from `t` where `a` <= ? and (`a` < ? or (`a` = ? and (`b` > ? or (`b` = ? and `id` > ?))))',
    );
  });

  it("keeps each term's NULL placement: NULLs first lie before every value, NULLs last after", () => {
    // score NULLs first (descending), bound 5: NULL scores come before it, so no leading range.
    expect(
      before('postgres', postgresCapabilities, [desc('score'), id('desc')], [true, false], [false, false]),
    ).toBe('select * from "t" where (("score" is null or "score" > $1) or ("score" = $2 and "id" > $3))');
    // Bound inside the NULL block of a NULLs-last term: every value comes before it.
    expect(
      before('sqlite', sqliteCapabilities, [asc('score'), id('asc')], [true, false], [true, false]),
    ).toBe('select * from "t" where ("score" is not null or ("score" is null and "id" < ?))');
    // Inside the NULL block of a NULLs-first term: only the NULLs before the bound's row.
    expect(
      before('sqlite', sqliteCapabilities, [desc('score'), id('desc')], [true, false], [true, false]),
    ).toBe('select * from "t" where "score" is null and "id" > ?');
  });
});

describe('withTieGroups', () => {
  it("ranks the statement's own rows by the ordering's columns and orders them again", () => {
    const db = kyselies.postgres;
    const order = [asc('title')];
    const keys = [ReferenceNode.create(ColumnNode.create('title'))];
    const statement = db
      .with('recent', (q) => q.selectFrom('t').selectAll())
      .selectFrom('recent')
      .selectAll()
      .orderBy('title')
      .limit(3)
      .toOperationNode();
    const node = withTieGroups(
      statement,
      keys,
      orderByItems(order, keys.map(part), () => 'column', postgresCapabilities),
    );
    expect((db.getExecutor().compileQuery(node, { queryId: 'x' }) as CompiledQuery).sql).toBe(
      'with "recent" as (select * from "t") select "w".*, dense_rank() over (order by "title") as "pagewisetie" from (select * from "recent" order by "title" limit $1) as "w" order by "title" asc',
    );
  });
});

describe('withLookAhead', () => {
  it('reads the look-ahead row of a statement ranked in tie groups apart, sorted after its ties (MySQL)', () => {
    const db = kyselies.mysql;
    const order = [asc('title')];
    const core = db
      .with('recent', (q) => q.selectFrom('t').selectAll())
      .selectFrom('recent')
      .selectAll();
    const segment = planSegments(order, [false], null, mysqlCapabilities)[0]!;
    const keys = [part(ReferenceNode.create(ColumnNode.create('title')))];
    const statement = segmentStatement(NO_BASE, order, keys, [false], segment, true, mysqlCapabilities);
    const items = orderByItems(order, keys, () => 'column', mysqlCapabilities);
    const lookAhead = lookAheadSlots(order.length, statement.limit);
    const orderBy = [...items, { expr: identifier(AHEAD_COLUMN), direction: 'asc' as const }];
    const node = keysetNode(core.toOperationNode(), {
      ...statement,
      tieGroups: { keys, orderBy, lookAhead },
    });
    expect((db.getExecutor().compileQuery(node, { queryId: 'x' }) as CompiledQuery).sql).toBe(
      'with `recent` as (select * from `t`) select `w`.*, dense_rank() over (order by `title`) as `pagewisetie` from (' +
        'select `a`.*, 0 as `pagewiseahead` from (select * from `recent` order by `title` asc limit ? offset ?) as `a` union all ' +
        'select `b`.*, 1 as `pagewiseahead` from (select * from `recent` order by `title` asc limit ? offset ?) as `b`' +
        ') as `w` order by `title` asc, `pagewiseahead` asc',
    );
    expect(lookAhead).toEqual({ limit: new Slot(4), aheadLimit: new Slot(5), aheadOffset: new Slot(6) });
  });

  it("gives the rows before the look-ahead row and the look-ahead row's LIMIT and OFFSET", () => {
    expect(lookAheadValues(5, 2)).toEqual([4, 1, 6]);
    expect(lookAheadValues(1, 0)).toEqual([0, 1, 0]);
    expect(lookAheadValues(0, 3)).toEqual([0, 0, 3]);
    expect(lookAheadValues(Number.MAX_SAFE_INTEGER, 7)[2]).toBe(Number.MAX_SAFE_INTEGER);
    expect(lookAheadSlots(1, literal(51))).toEqual({
      limit: literal(50),
      aheadLimit: literal(1),
      aheadOffset: literal(50),
    });
  });
});
