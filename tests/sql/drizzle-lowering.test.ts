import type { KeyTerm } from '@pagewise/core';
import {
  boundSlots,
  type DialectCapabilities,
  identifier,
  keysetPredicate,
  mysqlCapabilities,
  node,
  planSegments,
  postgresCapabilities,
  RENDER_STYLES,
  type RenderStyle,
  renderSql,
  Slot,
  type SqlPart,
  segmentPredicates,
  sqliteCapabilities,
  stopPredicate,
} from '@pagewise/sql';
import Database from 'better-sqlite3';
import { fillPlaceholders, type SQL, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { MySqlDialect } from 'drizzle-orm/mysql-core';
import { PgDialect } from 'drizzle-orm/pg-core';
import { integer, SQLiteSyncDialect, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { afterAll, describe, expect, it } from 'vitest';
import { lower, slotName } from '../../packages/drizzle-adapter/src/lower.js';

// @pagewise/sql's fragments lower into Drizzle's `sql` one for one, as they lower into Kysely's
// nodes: text around parts (`sql.raw` between the parts), `sql.identifier` (qualified ones joined
// by dots), bound values (params), literals (`sql.raw` of the quoted constant) and slots
// (`sql.placeholder`, filled when the statement runs). Every shape written through Drizzle's own
// dialects is the text the reference lowering (`renderSql`) writes, and a keyset page over it runs
// on better-sqlite3 through Drizzle with its placeholders filled. The Drizzle adapter builds on
// this lowering (packages/drizzle-adapter/src/lower.ts, tested here); @pagewise/sql itself never imports
// drizzle-orm.

const DIALECTS = [
  ['postgres', new PgDialect(), postgresCapabilities, RENDER_STYLES.postgres],
  ['sqlite', new SQLiteSyncDialect(), sqliteCapabilities, RENDER_STYLES.sqlite],
  ['mysql', new MySqlDialect(), mysqlCapabilities, RENDER_STYLES.mysql],
] as const;

type Dialect = (typeof DIALECTS)[number][1];

/**
 * The adapter's lowering of `part`, typed as this file's Drizzle SQL: the adapter and the tests
 * resolve two installed copies of drizzle-orm (their peers differ), one at run time through `is()`.
 */
const toSql = (part: SqlPart): SQL => lower(part) as unknown as SQL;

/** A column as the Drizzle adapter will pass it: Drizzle SQL inside a node part. */
const column = (name: string): SqlPart => node(sql`${sql.identifier(name)}`);

/** Drizzle's text and params for `part`, the params' placeholders named as the slots. */
function throughDrizzle(dialect: Dialect, part: SqlPart): { sql: string; params: unknown[] } {
  const query = dialect.sqlToQuery(toSql(part));
  return {
    sql: query.sql,
    params: query.params.map((p) =>
      typeof p === 'object' && p !== null && 'name' in p ? `:${(p as { name: string }).name}` : p,
    ),
  };
}

/** The reference lowering's text and params, a column node written as its quoted name. */
function reference(style: RenderStyle, part: SqlPart): { sql: string; params: unknown[] } {
  const rendered = renderSql(part, style, (inner) => {
    const query = new SQLiteSyncDialect().sqlToQuery(inner as SQL).sql;
    return style.quote === '`' ? query.replaceAll('"', '`') : query;
  });
  return {
    sql: rendered.sql,
    params: rendered.parameters.map((p) => (p instanceof Slot ? `:${slotName(p)}` : p)),
  };
}

const asc = (field: string): KeyTerm => ({ field, direction: 'asc', nulls: 'last' });
const desc = (field: string): KeyTerm => ({ field, direction: 'desc', nulls: 'first' });
const id = (direction: 'asc' | 'desc'): KeyTerm => ({ field: 'id', direction, nulls: 'last', unique: true });

/** The keyset shapes of a few orderings, bounds and NULL patterns on one dialect. */
function shapes(capabilities: DialectCapabilities): SqlPart[] {
  const orderings: Array<[KeyTerm[], boolean[], Array<string | number | null>]> = [
    [
      [desc('created'), id('desc')],
      [false, false],
      ['t', 1],
    ],
    [
      [desc('created'), id('asc')],
      [false, false],
      ['t', 1],
    ],
    [
      [asc('a'), desc('b'), id('desc')],
      [false, false, false],
      [1, 2, 3],
    ],
    [
      [{ ...desc('score'), nulls: 'last' }, id('desc')],
      [true, false],
      [null, 7],
    ],
    [
      [asc('score'), id('asc')],
      [true, false],
      [5, 7],
    ],
  ];
  return orderings.flatMap(([order, nullable, bound]) => {
    const exprs = order.map((term) => column(term.field));
    const params = boundSlots(
      order,
      (i, parameter) =>
        capabilities.boundParameter?.(parameter, {
          kind: 'decimal',
          nullable: false,
          type: i === 0 ? 'decimal(12,4)' : 'integer',
        }) ?? parameter,
    );
    const segments = planSegments(order, nullable, bound, capabilities, capabilities.mergedSegments);
    return [
      keysetPredicate(order, exprs, params, 0, capabilities),
      stopPredicate(
        order,
        exprs,
        nullable,
        bound.map((b) => b === null),
        capabilities,
      ),
      ...segments.flatMap((segment) => segmentPredicates(segment, order, exprs, params, capabilities)),
    ];
  });
}

describe("@pagewise/sql's fragments lowered into Drizzle's sql", () => {
  for (const [name, dialect, capabilities, style] of DIALECTS) {
    it(`${name}: every keyset shape is the reference text, its slots Drizzle placeholders`, () => {
      for (const shape of shapes(capabilities)) {
        expect(throughDrizzle(dialect, shape)).toEqual(reference(style, shape));
      }
    });

    it(`${name}: catalog reads, position expressions and probes, values bound and literals written`, () => {
      const parts: SqlPart[] = [
        capabilities.catalogQuery!('items', name === 'sqlite' ? undefined : 'app'),
        ...(capabilities.indexQuery === null ? [] : [capabilities.indexQuery('items', undefined)]),
        capabilities.positionExpression(column('created'), {
          kind: 'date',
          nullable: false,
          type: 'timestamp(3) with time zone',
        }) ?? column('created'),
        capabilities.positionExpression(column('created'), {
          kind: 'timestamp-text',
          nullable: false,
          type: 'timestamp with time zone',
        }) ?? column('created'),
        ...(capabilities.exactIntegerText === null ? [] : [capabilities.exactIntegerText(column('id'))]),
        ...(capabilities.recordedText === null ? [] : [capabilities.recordedText.probe()]),
        identifier('app', 'items'),
      ];
      for (const part of parts) expect(throughDrizzle(dialect, part)).toEqual(reference(style, part));
    });
  }
});

describe('a keyset page through Drizzle on better-sqlite3, its placeholders filled per page', () => {
  const sqlite = new Database(':memory:');
  afterAll(() => sqlite.close());
  sqlite.exec('create table items (id integer primary key, created text not null)');
  const insert = sqlite.prepare('insert into items (id, created) values (?, ?)');
  for (let i = 1; i <= 30; i += 1) insert.run(i, `2024-05-${String(1 + (i % 4)).padStart(2, '0')}`);
  const items = sqliteTable('items', { id: integer('id').primaryKey(), created: text('created').notNull() });
  const db = drizzle(sqlite);

  it('walks every row once, by the merged tie-group statement SQLite reads as one range', () => {
    const order = [desc('created'), id('desc')];
    const nullable = [false, false];
    const exprs = [node(sql`${items.created}`), node(sql`${items.id}`)];
    const seen: number[] = [];
    let bound: Array<string | number> | null = null;
    for (let page = 0; page < 20; page += 1) {
      const segments = planSegments(order, nullable, bound, sqliteCapabilities, true);
      const arms = segments.map((segment) => {
        const predicates = segmentPredicates(segment, order, exprs, boundSlots(order), sqliteCapabilities);
        return predicates.length === 0 ? sql`1 = 1` : sql.join(predicates.map(toSql), sql.raw(' and '));
      });
      // One statement of `union all` arms under one ORDER BY and LIMIT, as the merged statement says.
      const statement = sql.join(
        [
          sql.join(
            arms.map((where) => sql`select ${items.id}, ${items.created} from ${items} where ${where}`),
            sql.raw(' union all '),
          ),
          sql` order by ${sql.identifier('created')} desc, ${sql.identifier('id')} desc limit ${sql.placeholder('s2')}`,
        ],
        sql.raw(''),
      );
      const query = new SQLiteSyncDialect().sqlToQuery(statement);
      const values: Record<string, unknown> = { s2: 7 };
      bound?.forEach((value, i) => {
        values[`s${i}`] = value;
      });
      const rows = sqlite.prepare(query.sql).all(...fillPlaceholders(query.params, values)) as Array<{
        id: number;
        created: string;
      }>;
      if (rows.length === 0) break;
      seen.push(...rows.map((row) => row.id));
      const last = rows.at(-1)!;
      bound = [last.created, last.id];
    }
    expect(seen).toHaveLength(30);
    expect(new Set(seen).size).toBe(30);
    // The same order as Drizzle's own query of the whole table.
    const all = db
      .select({ id: items.id })
      .from(items)
      .orderBy(sql`${items.created} desc`, sql`${items.id} desc`)
      .all();
    expect(seen).toEqual(all.map((row) => row.id));
  });
});
