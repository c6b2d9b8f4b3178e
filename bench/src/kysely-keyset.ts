import type { ExpressionBuilder, Kysely, SelectQueryBuilder } from 'kysely';
import { COLUMNS } from './bench-table.js';
import type { OrderingName } from './orderings.js';

/** The row before a page, in whatever types the dialect's driver returns. */
export interface KeysetRow {
  readonly id: number;
  readonly created: unknown;
  readonly score: number | null;
}

/** How a dialect spells the keyset condition a Kysely user would write. */
export interface KeysetStyle {
  /** `(a, b) < (x, y)` is an index range here (Postgres, SQLite); MariaDB needs the expanded form. */
  readonly rowValues: boolean;
  /** `score desc` must say `nulls last` (Postgres); elsewhere NULL sorts lowest already. */
  readonly nullsLast: boolean;
}

// biome-ignore lint/suspicious/noExplicitAny: the table name is chosen at run time.
type AnyDb = Kysely<any>;
// biome-ignore lint/suspicious/noExplicitAny: see AnyDb.
type AnyQuery = SelectQueryBuilder<any, any, any>;

/**
 * `column <= v and (column < v or (column = v and id <op> i))`: the leading column bounds an index
 * range, the rest picks the exact position (descending `column`; `op` is the id's direction).
 */
export function expandedAfter(column: 'created' | 'score', value: unknown, id: number, op: '<' | '>') {
  // biome-ignore lint/suspicious/noExplicitAny: the table name is chosen at run time.
  return (eb: ExpressionBuilder<any, any>) =>
    eb.and([
      eb(column, '<=', value),
      eb.or([eb(column, '<', value), eb.and([eb(column, '=', value), eb('id', op, id)])]),
    ]);
}

/**
 * The keyset page after `after` (`null`: the first page) written by hand in Kysely, as a Kysely
 * user writes it without Pagewise: a builder per request, the condition an expert picks for the
 * ordering's index, `limit` rows (the page plus a look-ahead row).
 *
 * @example
 * await kyselyKeysetPage(db, 'items', 'uniform', row, 51, { rowValues: true, nullsLast: true }).execute()
 * // select id, created, score, title from items where (created, id) < ($1, $2) order by created desc, id desc limit $3
 */
export function kyselyKeysetPage(
  db: AnyDb,
  table: string,
  ordering: OrderingName,
  after: KeysetRow | null,
  limit: number,
  style: KeysetStyle,
): AnyQuery {
  const base = () => db.selectFrom(table).select([...COLUMNS]);
  if (ordering === 'uniform') {
    let q = base();
    if (after !== null) {
      q = style.rowValues
        ? q.where((eb) => eb(eb.refTuple('created', 'id'), '<', eb.tuple(after.created, after.id)))
        : q.where(expandedAfter('created', after.created, after.id, '<'));
    }
    return q.orderBy('created', 'desc').orderBy('id', 'desc').limit(limit);
  }
  if (ordering === 'mixed') {
    let q = base();
    if (after !== null) {
      q = q.where(expandedAfter('created', after.created, after.id, '>'));
    }
    return q.orderBy('created', 'desc').orderBy('id', 'asc').limit(limit);
  }
  const scoreDesc = (q: AnyQuery) =>
    (style.nullsLast
      ? q.orderBy('score', (ob) => ob.desc().nullsLast())
      : q.orderBy('score', 'desc')
    ).orderBy('id', 'desc');
  if (after === null) return scoreDesc(base()).limit(limit);
  if (after.score === null) {
    return scoreDesc(base().where('score', 'is', null).where('id', '<', after.id)).limit(limit);
  }
  // The rest of the scored rows, then the NULL block: each branch an index range, stopped at the limit.
  const score = after.score;
  const scored = scoreDesc(
    base().where((eb) =>
      style.rowValues
        ? eb(eb.refTuple('score', 'id'), '<', eb.tuple(score, after.id))
        : expandedAfter('score', score, after.id, '<')(eb),
    ),
  ).limit(limit);
  const nulls = scoreDesc(base().where('score', 'is', null)).limit(limit);
  return db
    .selectFrom(scored.as('scored'))
    .selectAll()
    .unionAll(db.selectFrom(nulls.as('nulls')).selectAll())
    .limit(limit);
}

/** A hand-written page's cursor: base64url of a row's `created` and `id` as JSON, as a Node user writes one. */
export function handCursor(row: KeysetRow): string {
  return Buffer.from(JSON.stringify({ created: row.created, id: row.id })).toString('base64url');
}

/**
 * `kyselyKeysetPage` with the least a hand-written API page adds to its query: the cursor read
 * from the request's `url` (`handCursor`'s, checked by nothing but JSON; with `dates`, `created` a
 * `Date` again as the driver gave it, else its text as it is) and the next page's link minted from
 * the page's last row. No previous link, no body, positions only as exact as the driver's values.
 *
 * @example
 * const { rows, next } = await handCursorPage(db, 'items', 'uniform', 'http://x/items?cursor=eyJ...', 50, style, true);
 */
export async function handCursorPage(
  db: AnyDb,
  table: string,
  // The cursor holds `created` and `id`: the orderings of those two.
  ordering: Extract<OrderingName, 'uniform' | 'mixed'>,
  url: string,
  pageSize: number,
  style: KeysetStyle,
  dates: boolean,
): Promise<{ readonly rows: KeysetRow[]; readonly next: string | null }> {
  const parsed = new URL(url);
  const token = parsed.searchParams.get('cursor');
  const read = token === null ? null : (JSON.parse(Buffer.from(token, 'base64url').toString()) as KeysetRow);
  const after = read === null || !dates ? read : { ...read, created: new Date(read.created as string) };
  const rows = (await kyselyKeysetPage(
    db,
    table,
    ordering,
    after,
    pageSize + 1,
    style,
  ).execute()) as KeysetRow[];
  const next =
    rows.length > pageSize
      ? `${parsed.origin}${parsed.pathname}?cursor=${handCursor(rows[pageSize - 1]!)}`
      : null;
  return { rows, next };
}
