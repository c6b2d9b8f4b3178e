import type { KeyTerm, PositionValue } from '@pagewise/core';
import { fromKysely } from '@pagewise/kysely-adapter';
import Database from 'better-sqlite3';
import { type CompiledQuery, Kysely, type SelectQueryBuilder, SqliteDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// SQLite reads a cursor page as one `UNION ALL` statement whose first arm is the rows tied with
// the bound (`score = ? AND id < ?`): walked here over few distinct values (every page starts
// inside a tie group), in both directions, for queries whose ORDER BY the compound must name
// differently: the column selected as it is, under an alias, not selected at all (a private
// column), and read from a CTE.

interface Row {
  id: number;
  score: number | null;
  title: string;
}
// biome-ignore lint/suspicious/noExplicitAny: the query shapes select different columns.
type Builder = SelectQueryBuilder<any, any, any>;

const ROWS = 600;
const rows: Row[] = Array.from({ length: ROWS }, (_, i) => {
  const id = i + 1;
  return { id, score: id % 7 === 0 ? null : id % 4, title: `t${id}` };
});

describe('[sqlite] cursor pages inside tie groups', () => {
  const statements: CompiledQuery[] = [];
  const db = new Kysely<{ t: Row }>({
    dialect: new SqliteDialect({ database: new Database(':memory:') }),
    log: (event) => {
      if (event.level === 'query') statements.push(event.query);
    },
  });

  beforeAll(async () => {
    await sql`create table t (id integer primary key, score integer, title text not null)`.execute(db);
    await sql`create index t_score_id on t (score, id)`.execute(db);
    for (const row of rows) await db.insertInto('t').values(row).execute();
  });
  afterAll(() => db.destroy());

  /** Every page of `limit` rows after the previous one's last, in `order`: the ids, in turn. */
  async function walk(
    builder: Builder,
    order: KeyTerm[],
    key: (row: Row) => PositionValue[],
  ): Promise<number[]> {
    const query = fromKysely(builder, { db });
    const seen: number[] = [];
    let after: PositionValue[] | null = null;
    for (let pages = 0; pages < ROWS; pages += 1) {
      const page = await query.fetch({ order, after, offset: 0, limit: 13 });
      for (const { row } of page) seen.push(Number((row as { id: number }).id));
      if (page.length < 13) return seen;
      const last = rows.find((r) => r.id === seen.at(-1))!;
      after = key(last);
    }
    throw new Error('the walk did not end');
  }

  /** The ids in `order`, sorted in JavaScript: NULLs where each term puts them, then by value. */
  function expected(order: KeyTerm[], value: (row: Row, field: string) => number | null): number[] {
    return [...rows]
      .sort((a, b) => {
        for (const term of order) {
          const x = value(a, term.field);
          const y = value(b, term.field);
          if (x === y) continue;
          if (x === null || y === null) return (x === null) === (term.nulls === 'last') ? 1 : -1;
          return (x < y ? -1 : 1) * (term.direction === 'asc' ? 1 : -1);
        }
        return 0;
      })
      .map((r) => r.id);
  }

  const orders: Array<[string, KeyTerm[]]> = [
    [
      'score desc NULLs last (native, the NULL block an arm too)',
      [
        { field: 'score', direction: 'desc', nulls: 'last' },
        { field: 'id', direction: 'desc', nulls: 'last', unique: true },
      ],
    ],
    [
      'score asc NULLs last (the NULL block a statement of its own)',
      [
        { field: 'score', direction: 'asc', nulls: 'last' },
        { field: 'id', direction: 'asc', nulls: 'last', unique: true },
      ],
    ],
    [
      'score asc, id desc (mixed directions)',
      [
        { field: 'score', direction: 'asc', nulls: 'first' },
        { field: 'id', direction: 'desc', nulls: 'last', unique: true },
      ],
    ],
  ];

  for (const [title, order] of orders) {
    it(`${title}: every shape walks every row once, in order, one statement per page until the NULL block`, async () => {
      const want = expected(order, (row, field) => (field === 'id' ? row.id : row.score));
      const byScore = (row: Row): PositionValue[] => [row.score, row.id];
      const alias = order.map((t) => (t.field === 'score' ? { ...t, field: 'points' } : t));
      const all = () => true;
      const shapes: Array<[string, Builder, KeyTerm[], (id: number) => boolean]> = [
        ['selected', db.selectFrom('t').selectAll(), order, all],
        ['aliased', db.selectFrom('t').select(['id', 'title', 't.score as points']), alias, all],
        ['not selected', db.selectFrom('t').select(['id', 'title']), order, all],
        [
          'from a CTE',
          db
            .with('c', (w) => w.selectFrom('t').selectAll())
            .selectFrom('c')
            .selectAll(),
          order,
          all,
        ],
        // The query's own WHERE and its values in every arm (an OR, so its parentheses count too).
        [
          'filtered',
          db
            .selectFrom('t')
            .selectAll()
            .where((eb) => eb.or([eb('id', '>', 40), eb('title', '=', 't3')])),
          order,
          (id) => id > 40 || id === 3,
        ],
      ];
      for (const [shape, builder, terms, keep] of shapes) {
        statements.length = 0;
        expect(await walk(builder, terms, byScore), shape).toEqual(want.filter(keep));
        // Deep in a tie group, the page is one statement whose first arm is the tie group.
        const tied = statements.filter((s) => / = \? and "id" [<>] \? union all /.test(s.sql));
        expect(tied.length, shape).toBeGreaterThan(10);
        // Its LIMIT is the number (SQLite merges the arms faster under it), the filtered query's
        // too: SQLite plans when it prepares (`literalLimit`, `literalLimitWithValues`).
        const limits = new Set(tied.map((s) => / limit (\?|\d+)$/.exec(s.sql)?.[1]));
        expect([...limits], shape).toEqual(['13']);
      }
    });
  }

  it('a page from the middle of a tie group is the same with an offset, which the compound applies once', async () => {
    const order = orders[0]![1];
    const query = fromKysely(db.selectFrom('t').selectAll(), { db });
    // Six rows of score 2 lie below id 30, then the scores of 1: the window spans both arms.
    const after: PositionValue[] = [2, 30];
    const whole = await query.fetch({ order, after, offset: 0, limit: 20 });
    const skipped = await query.fetch({ order, after, offset: 5, limit: 15 });
    expect(skipped.map((r) => r.row.id)).toEqual(whole.slice(5).map((r) => r.row.id));
    expect(whole.map((r) => r.row.score)).toContain(1);
  });
});
