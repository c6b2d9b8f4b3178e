import { ERROR_KIND, type ErrorKind, hasErrorKind } from '../errors.js';
import type { KeyTerm, OrderTerm } from './ordering.js';

/** A value a cursor position can hold; it round-trips exactly through a cursor. */
export type PositionValue = string | number | bigint | boolean | Date | null;

/**
 * The one window a paginator asks an adapter for. Core builds it (ordering, keyset bound or
 * offset, limit with the look-ahead row already added); the adapter compiles it.
 */
export interface WindowSpec {
  /** The ordering to fetch in, or `null` for the query's own ordering (offset-based styles). */
  readonly order: readonly KeyTerm[] | null;
  /**
   * Keyset bound: only rows strictly after these values in `order` (one value per term).
   * `null` starts from the first row.
   */
  readonly after: readonly PositionValue[] | null;
  /**
   * The far bound of a window between two cursors: only rows strictly before these values in
   * `order`. Adapters compare it where they compare `after` (in SQL, under each column's
   * collation), so which rows a window holds is the backend's decision, never JavaScript's.
   * Absent or `null`: no far bound.
   */
  readonly before?: readonly PositionValue[] | null;
  /** Rows to skip after the bound (page offsets; the residual offset of cursors with ties). */
  readonly offset: number;
  /** Rows to return at most; `null` returns every row (an unpaginated list, one query). */
  readonly limit: number | null;
}

/** Whether `value` is something a cursor position can hold (adapters check the rows they read). */
export function isPositionValue(value: unknown): value is PositionValue {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'bigint' ||
    typeof value === 'boolean' ||
    value instanceof Date
  );
}

/** A fetched row with its position: the values of the window's order terms, in order. */
export interface WindowRow<Row> {
  readonly row: Row;
  readonly position: readonly PositionValue[];
}

/**
 * One window as its rows and a reader of their positions: what `fetch` answers, without an object
 * per row (a cursor page's links read the positions of two of its rows).
 */
export interface FetchedRows<Row> {
  /** The rows in window order; the caller copies what it keeps and never changes this array. */
  readonly rows: readonly Row[];
  /** The position of the row fetched at `index` (its index in `rows` as answered). */
  position(index: number): readonly PositionValue[];
  /**
   * The positions of the rows fetched at `indexes`, in one call: what a page's links stand on (its
   * first and last rows). Optional; without it core asks `position` for each.
   */
  positionsAt?(indexes: readonly number[]): ReadonlyArray<readonly PositionValue[]>;
  /**
   * Whether the rows fetched at `a` and `b` hold equal positions as the backend compares them:
   * under a case-insensitive or padding collation 'a' and 'A ' tie where their values differ.
   * Only an ordering without a unique term can tie (DRF's position + offset scheme counts the
   * ties); an adapter whose equality is JavaScript's may leave it out.
   */
  readonly tied?: ((a: number, b: number) => boolean) | undefined;
}

/**
 * `fetch`'s answer as `FetchedRows`: what an adapter without a `fetchRows` of its own answers
 * through `fetch`, read as one that has it.
 *
 * @example
 * const { rows, position } = fetchedRowsOf(await query.fetch(window));
 */
export function fetchedRowsOf<Row>(page: ReadonlyArray<WindowRow<Row>>): FetchedRows<Row> {
  return { rows: page.map((r) => r.row), position: (index) => page[index]!.position };
}

/** The result of a count: `exact` is false when the number is an estimate. */
export interface CountResult {
  readonly value: number;
  readonly exact: boolean;
}

/** What `OrderedQuery.count` is asked for. */
export interface CountOptions {
  /** An estimate will do (the planner's, where the adapter has one). @default false */
  readonly estimate?: boolean | undefined;
  /** Milliseconds an exact count may run before it is cancelled and estimated instead. @default none */
  readonly timeoutMs?: number | undefined;
}

/**
 * What paginators page. Paginators never see SQL or arrays: adapters implement this contract
 * (`fromArray`, `fromKysely`) and compile `WindowSpec`s into their backend.
 */
export interface OrderedQuery<Row> {
  /** Adapter name, for messages: `'memory'`, `'kysely'`. */
  readonly adapter: string;
  /** The query's own ordering, empty when it has none. */
  readonly ordering: readonly OrderTerm[];
  /**
   * Whether the sequence has a defined order (Django's `QuerySet.ordered`). Offset-based styles
   * warn when it is false. Arrays are always ordered.
   */
  readonly ordered: boolean;
  /**
   * A field that is unique per row, appended by cursor pagination as the tiebreaker of a
   * non-unique ordering. `null` when there is none: cursors then fall back to DRF's position +
   * offset scheme. `null` too for a composite key, which `uniqueKeys` holds.
   */
  readonly uniqueKey: string | null;
  /**
   * The columns of the unique key in key order, when several make it (`['tenant_id', 'id']`):
   * each one the ordering lacks is appended as a tiebreaker, and positions carry them all.
   * Optional; absent or empty, the key is `uniqueKey` alone.
   * @default [uniqueKey] (or [] without one)
   */
  readonly uniqueKeys?: readonly string[] | undefined;
  /** A short description for warnings, e.g. `kysely query on "articles"`. */
  readonly description: string;
  /** A copy whose own ordering is `terms` (what an ordering filter applies). */
  orderBy(terms: readonly OrderTerm[]): OrderedQuery<Row>;
  /**
   * Number of rows; with `estimate`, an adapter may answer a cheaper estimate. With `timeoutMs`,
   * an exact count still running after that many milliseconds is cancelled on the server and
   * the estimate answered instead (`exact: false`); an adapter that cannot cancel a statement
   * (an in-process database, an array) counts exactly.
   */
  count(options?: CountOptions): Promise<CountResult>;
  /**
   * What a `CountCache` keys this query's count on: text that differs whenever the count could
   * (the statement and its values), the same for every page of one query. Optional; a query
   * without it is counted on every request even when a count cache is configured.
   *
   * @example
   * query.countKey() // '["id",{}, ...],{"kind":"SelectQueryNode",...},[42]'
   */
  countKey?(): string | null;
  /**
   * Fetches one window. Throws `InvalidBoundError` when `after` holds values that cannot be
   * compared with the ordering fields (a tampered cursor), so paginators can answer 404.
   */
  fetch(window: WindowSpec): Promise<ReadonlyArray<WindowRow<Row>>>;
  /**
   * `fetch`'s window as `FetchedRows`: the same rows and positions (and the same errors), no
   * `WindowRow` object per row. Optional; cursor pages use it when the adapter has it.
   */
  fetchRows?(window: WindowSpec): Promise<FetchedRows<Row>>;
  /**
   * The first row of the query whose `field` equals `value` (a path parameter, as text), or
   * `null` when none does or when `value` cannot be of the field's type (then nothing runs: a
   * viewset's `retrieve` answers 404 either way). Optional; viewsets' detail actions need it.
   *
   * @example
   * await query.find('id', '7')
   * // select * from "articles" where "id" = $1 limit $2
   */
  find?(field: string, value: string): Promise<Row | null>;
  /**
   * Whether `value` (a path parameter, as text) is written as a value of `field`'s type, found or
   * not: `'999'` and `'-1'` are integers, `'abc'`, `'1.5'` and `"1' or 1=1"` are not (Django's
   * `get_prep_value` would raise). Optional; a viewset's `retrieve` answers a value that is not
   * with DRF's bare 404 `Not found.`, and a missing row with `No Article matches the given query.`
   * (without it, every miss with the latter).
   *
   * @example
   * await query.accepts('id', 'abc') // false: an integer key
   */
  accepts?(field: string, value: string): Promise<boolean>;
  /**
   * Inserts one row into the query's table and answers it as the query reads it. Optional;
   * `ModelViewSet`'s default `create` uses it.
   */
  insert?(values: Readonly<Record<string, unknown>>): Promise<Row>;
  /**
   * Updates the rows whose `field` equals `value` and answers the first as the query reads it
   * (`null` when none). Optional; `ModelViewSet`'s default `update` uses it.
   */
  update?(field: string, value: string, values: Readonly<Record<string, unknown>>): Promise<Row | null>;
  /** Deletes the rows whose `field` equals `value`; answers how many. Optional; `destroy` uses it. */
  delete?(field: string, value: string): Promise<number>;
}

/** Thrown by adapters when a keyset bound's values do not fit the ordering fields. */
export class InvalidBoundError extends Error {
  constructor(adapter: string, message: string) {
    super(`${adapter} adapter: ${message}`);
    this.name = 'InvalidBoundError';
  }

  /** Brand for `isInvalidBoundError`: adapters may throw another installed copy's class. */
  get [ERROR_KIND](): ErrorKind {
    return 'InvalidBoundError';
  }
}

/**
 * Whether `value` is an `InvalidBoundError`, from this or another installed copy of core.
 * @example if (isInvalidBoundError(error)) throw new NotFound('Invalid cursor');
 */
export function isInvalidBoundError(value: unknown): value is InvalidBoundError {
  return value instanceof InvalidBoundError || hasErrorKind(value, 'InvalidBoundError');
}

/** The row type of an `OrderedQuery`. */
export type RowOf<Q> = Q extends OrderedQuery<infer Row> ? Row : never;
