import type { KyselyPaginateField } from '@pagewise/bench-kysely-paginate-024';
import {
  encodeCursor,
  type KeyTerm,
  type OrderedQuery,
  type OrderingInput,
  parseOrdering,
  settleNulls,
} from '@pagewise/core';
import { type BenchRow, COLUMNS } from './bench-table.js';

/** The orderings measured. */
export type OrderingName = 'uniform' | 'mixed' | 'nullable';

/** A bound SQL statement for `pg`. */
export interface Statement {
  readonly name: string;
  readonly text: string;
  readonly values: unknown[];
}

/** One ordering: how Pagewise, kysely-paginate and hand-written SQL each spell it. */
export interface BenchOrdering {
  readonly name: OrderingName;
  /** What the tables call it. */
  readonly title: string;
  readonly pagewise: OrderingInput;
  /** kysely-paginate's fields; `null` when it cannot express the ordering (NULL placement). */
  readonly kyselyPaginate: readonly KyselyPaginateField[] | null;
  /** The ORDER BY of the hand-written query. */
  readonly orderBy: string;
  /**
   * The best hand-written keyset query for the page after `after` (`null`: the first page), the
   * way an expert writes it for the index of this ordering.
   */
  statement(table: string, after: BenchRow | null, limit: number): Statement;
}

const SELECT = COLUMNS.join(', ');

function firstPage(table: string, name: OrderingName, orderBy: string, limit: number): Statement {
  return {
    name: `${table}_${name}_first`,
    text: `SELECT ${SELECT} FROM ${table} ORDER BY ${orderBy} LIMIT $1`,
    values: [limit],
  };
}

/** `-created, -id`: all directions agree, so a row-value comparison seeks the index. */
const uniform: BenchOrdering = {
  name: 'uniform',
  title: 'uniform `-created, -id`',
  pagewise: ['-created', '-id'],
  kyselyPaginate: [
    { field: 'created', direction: 'desc' },
    { field: 'id', direction: 'desc' },
  ],
  orderBy: 'created DESC, id DESC',
  statement(table, after, limit) {
    if (after === null) return firstPage(table, 'uniform', this.orderBy, limit);
    return {
      name: `${table}_uniform_after`,
      text: `SELECT ${SELECT} FROM ${table} WHERE (created, id) < ($1, $2) ORDER BY ${this.orderBy} LIMIT $3`,
      values: [after.created, after.id, limit],
    };
  },
};

/** `-created, id`: directions differ, so a leading range bound plus the exact condition. */
const mixed: BenchOrdering = {
  name: 'mixed',
  title: 'mixed `-created, id`',
  pagewise: ['-created', 'id'],
  kyselyPaginate: [
    { field: 'created', direction: 'desc' },
    { field: 'id', direction: 'asc' },
  ],
  orderBy: 'created DESC, id ASC',
  statement(table, after, limit) {
    if (after === null) return firstPage(table, 'mixed', this.orderBy, limit);
    return {
      name: `${table}_mixed_after`,
      text:
        `SELECT ${SELECT} FROM ${table} WHERE created <= $1 AND (created < $1 OR (created = $1 AND id > $2)) ` +
        `ORDER BY ${this.orderBy} LIMIT $3`,
      values: [after.created, after.id, limit],
    };
  },
};

/**
 * `score DESC NULLS LAST, -id` on a nullable column. After a non-NULL score: the rest of the
 * non-NULL rows by a row-value seek, then the NULL rows, each branch an index range (Postgres
 * stops the `UNION ALL` as soon as the limit is reached). After a NULL score: only NULL rows remain.
 */
const nullable: BenchOrdering = {
  name: 'nullable',
  title: 'nullable `score DESC NULLS LAST, -id`',
  pagewise: [{ field: 'score', direction: 'desc', nulls: 'last' }, '-id'],
  kyselyPaginate: null,
  orderBy: 'score DESC NULLS LAST, id DESC',
  statement(table, after, limit) {
    if (after === null) return firstPage(table, 'nullable', this.orderBy, limit);
    if (after.score === null) {
      return {
        name: `${table}_nullable_after_null`,
        text: `SELECT ${SELECT} FROM ${table} WHERE score IS NULL AND id < $1 ORDER BY ${this.orderBy} LIMIT $2`,
        values: [after.id, limit],
      };
    }
    return {
      name: `${table}_nullable_after_value`,
      text:
        `(SELECT ${SELECT} FROM ${table} WHERE (score, id) < ($1, $2) ORDER BY ${this.orderBy} LIMIT $3) ` +
        `UNION ALL (SELECT ${SELECT} FROM ${table} WHERE score IS NULL ORDER BY ${this.orderBy} LIMIT $3) LIMIT $3`,
      values: [after.score, after.id, limit],
    };
  },
};

/** Every ordering measured, in report order. */
export const ORDERINGS: readonly BenchOrdering[] = [uniform, mixed, nullable];

/** The unique key of the table: the adapter's tiebreaker. */
export const UNIQUE_KEY = 'id';

/**
 * The terms a Pagewise cursor's position is aligned with, as the engine keys them: the ordering
 * with NULL placement settled, the unique key marked unique (with a non-NULL column's placement)
 * and appended when the ordering lacks it, so `'-created'` and `['-created', '-id']` key alike.
 */
export function cursorOrder(ordering: OrderingInput, uniqueKey: string = UNIQUE_KEY): KeyTerm[] {
  const order: KeyTerm[] = parseOrdering(ordering).map(
    (term): KeyTerm =>
      term.field === uniqueKey
        ? { field: uniqueKey, direction: term.direction, nulls: 'last', unique: true }
        : settleNulls(term),
  );
  if (!order.some((term) => term.field === uniqueKey)) {
    order.push({
      field: uniqueKey,
      direction: order.at(-1)?.direction ?? 'asc',
      nulls: 'last',
      unique: true,
    });
  }
  return order;
}

/**
 * The Pagewise cursor token of the page that starts right after a row: what the `next` link of
 * the page ending at that row carries. `rowQuery` holds just that row; its position comes from
 * the adapter itself (through the `OrderedQuery` contract), so it is encoded exactly as the
 * adapter encodes positions (microsecond timestamps, for one).
 *
 * @example
 * const token = await pagewiseCursorAfter(fromKysely(db.selectFrom('t').selectAll().where('id', '=', 7)), ['-created', '-id']);
 */
export async function pagewiseCursorAfter(
  rowQuery: OrderedQuery<unknown>,
  ordering: OrderingInput,
): Promise<string> {
  const order = cursorOrder(ordering, rowQuery.uniqueKey ?? UNIQUE_KEY);
  const [row] = await rowQuery.fetch({ order, after: null, offset: 0, limit: 1 });
  if (row === undefined) throw new Error('pagewiseCursorAfter: the query holds no row');
  return encodeCursor({ offset: 0, reverse: false, position: row.position }, { order });
}
