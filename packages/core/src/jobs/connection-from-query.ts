import type { CachedCountResult } from '../contract/count-cache.js';
import type { OrderedQuery, PositionValue, WindowRow } from '../contract/ordered-query.js';
import {
  invertOrdering,
  type KeyTerm,
  type OrderingCheck,
  resolveKeyOrder,
  uniqueKeyColumns,
  withoutOrdering,
} from '../contract/ordering.js';
import { type CountMode, countPlan, type PageCountOptions } from '../contract/page-count.js';
import { type Cursor, DEFAULT_MAX_CURSOR_LENGTH } from '../cursor/cursor-codec.js';
import type { CursorEncryptionKey } from '../cursor/cursor-encryption.js';
import type { CursorSecret } from '../cursor/cursor-signature.js';
import { cursorProtection, fetchWindow, mintCursors, readCursorAsync } from '../cursor/cursor-window.js';
import { ConfigurationError, NotFound } from '../errors.js';
import { type CursorOrderingOptions, checkCount } from './paginate-cursor.js';

/** The Relay connection arguments (`first`/`after` forward, `last`/`before` backward). */
export interface ConnectionArguments {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

/** Options of `connectionFromQuery`. */
export interface ConnectionOptions extends CursorOrderingOptions, PageCountOptions {
  /**
   * `totalCount` on the connection (`exact` or `estimated`), taken beside the edges' statement.
   * On GraphQL, ask for it only when the query selects `totalCount` (`selectsField(info,
   * 'totalCount')`). @default 'none' (no `totalCount`)
   */
  count?: CountMode;
  /** Signs cursors with HMAC-SHA256, as `CursorPagination`'s option (a list: the first signs, every one verifies). @default null */
  cursorSecret?: CursorSecret | null;
  /**
   * Encrypts cursors with AES-256-GCM (Web Crypto): unreadable and tamper-proof. A key is 32
   * characters or more; a list rotates keys (the first encrypts, every one decrypts). Where it is
   * set, plain and signed cursors are `Invalid cursor`. @default null
   */
  cursorEncryptionKey?: CursorEncryptionKey | null;
  /**
   * Milliseconds a cursor stays valid; older ones are `Invalid cursor`. Needs `cursorSecret` or
   * `cursorEncryptionKey`, else `ConfigurationError`. @default null (never expire)
   */
  cursorTtl?: number | null;
  /** Edges when neither `first` nor `last` is given, and the clamp of both. @default 100 */
  maxPageSize?: number;
}

/** One edge: the row and its cursor. */
export interface Edge<Row> {
  readonly node: Row;
  readonly cursor: string;
}

/** The Relay `PageInfo`. */
export interface PageInfo {
  readonly hasNextPage: boolean;
  readonly hasPreviousPage: boolean;
  readonly startCursor: string | null;
  readonly endCursor: string | null;
}

/** A Relay connection: frozen edges and page info. */
export interface Connection<Row> {
  readonly edges: ReadonlyArray<Edge<Row>>;
  readonly pageInfo: PageInfo;
  /** The rows of the whole connection (every edge, not only this page's), only with a `count` option. */
  readonly totalCount?: number;
}

/** The position a Relay cursor stands on; the direction a token was minted for does not matter. */
function boundOf(cursor: Cursor | null): readonly PositionValue[] | null {
  if (cursor === null) return null;
  // Offsets only exist without a unique key, which connections refuse; a token carrying one is forged.
  if (cursor.offset !== 0) throw new NotFound('Invalid cursor');
  return cursor.position;
}

/**
 * Whether the database holds a row beyond the edges on the side of a cursor: before the page of
 * `after` (`toward` is the inverted order) or after the page of `before` (`toward` is the order),
 * one statement of one row. The edge nearest the cursor (`nearest`) is the first row past it, so
 * the rows beyond that edge are the cursor's own row, if it still exists, and every row beyond
 * it: a cursor of a row since deleted, with nothing beyond, answers false. With no edge, the rows
 * strictly beyond the cursor (the spec's "elements prior to after").
 */
async function holdsBeyond(
  fetch: (
    window: Parameters<OrderedQuery<unknown>['fetch']>[0],
  ) => Promise<ReadonlyArray<WindowRow<unknown>>>,
  toward: readonly KeyTerm[],
  cursor: readonly PositionValue[],
  nearest: readonly PositionValue[] | null,
): Promise<boolean> {
  const from = nearest ?? cursor;
  const beyond = await fetch({ order: toward, after: from, before: null, offset: 0, limit: 1 });
  return beyond.length > 0;
}

/**
 * A Relay connection (the GraphQL Cursor Connections spec) over any adapter query, by keyset: one
 * statement per call (two when a cursor's far side is asked about), `hasNextPage`/`hasPreviousPage`
 * from a look-ahead row or a one-row look beyond the cursor, never a count.
 *
 * Follows the spec's algorithm: the cursors bound the edges, then `first` keeps the first ones
 * and `last` the last ones. Neither: the first `maxPageSize` edges; a larger `first`/`last` is
 * clamped to it; a negative one is a `ValidationError` (400); a bad `after`/`before` rejects with
 * `NotFound` (`Invalid cursor`). As the spec allows, `hasPreviousPage` is `true` with
 * `first`/`after` when the database holds a row before the edges (a second statement of one row,
 * only when `after` is given), and `hasNextPage` likewise with `last`/`before`. Cursors are `CursorPagination` tokens for the same ordering and secret.
 *
 * @example
 * const connection = await connectionFromQuery(fromKysely(db.selectFrom('articles').selectAll(), { db }), args, {
 *   ordering: '-published_at',
 * });
 * // { edges: [{ node, cursor }], pageInfo: { hasNextPage, hasPreviousPage, startCursor, endCursor } }
 */
export async function connectionFromQuery<Row, const Options extends ConnectionOptions = ConnectionOptions>(
  query: OrderedQuery<Row>,
  args: ConnectionArguments,
  options: Options & OrderingCheck<Row, Options> = {} as Options & OrderingCheck<Row, Options>,
): Promise<Connection<Row>> {
  const maxPageSize = options.maxPageSize ?? 100;
  if (!Number.isSafeInteger(maxPageSize) || maxPageSize < 1) {
    throw new ConfigurationError(
      `connectionFromQuery: maxPageSize must be a positive integer, got ${maxPageSize}`,
    );
  }
  const first = args.first == null ? null : Math.min(checkCount('first', args.first, 0), maxPageSize);
  const last = args.last == null ? null : Math.min(checkCount('last', args.last, 0), maxPageSize);
  const order = resolveKeyOrder(query, options.ordering);
  if (uniqueKeyColumns(query).length === 0) {
    throw new ConfigurationError(
      `connectionFromQuery: the ${query.adapter} adapter's query has no unique key, so an edge's cursor ` +
        'could not name its row; give the adapter one (e.g. fromKysely(query, { uniqueKey: "id" })).',
    );
  }
  const protection = cursorProtection(options);
  const read = { ...protection, offsetCutoff: null };
  const [afterCursor, beforeCursor] = await Promise.all([
    readCursorAsync(args.after, order, read),
    readCursorAsync(args.before, order, read),
  ]);
  const after = boundOf(afterCursor);
  const before = boundOf(beforeCursor);
  const { take: countNow } = countPlan('connectionFromQuery', query, options, 'none');
  // The count goes out once the edges' statement has: beside it, never before it.
  let counting: Promise<CachedCountResult> | null = null;
  const countBeside = <T>(fetching: Promise<T>): Promise<T> => {
    if (countNow !== null) {
      const started = countNow();
      started.catch(() => {});
      counting = started;
    }
    return fetching;
  };

  const fetch = (window: Parameters<OrderedQuery<Row>['fetch']>[0]) =>
    fetchWindow(query, window).catch((error: unknown) => {
      throw withoutOrdering(error, query, options.ordering);
    });
  let rows: ReadonlyArray<WindowRow<Row>>;
  let hasNextPage: boolean;
  let hasPreviousPage: boolean;
  // Both cursors bound the statement: the database decides which rows lie between them.
  if (last !== null && first === null) {
    // Backward: the `last + 1` rows just before `before`, read in reverse; the extra one is the
    // look-ahead that says whether edges remain before them.
    const fetched = await countBeside(
      fetch({ order: invertOrdering(order), after: before, before: after, offset: 0, limit: last + 1 }),
    );
    rows = fetched.slice(0, last).reverse();
    hasPreviousPage = fetched.length > last;
    hasNextPage = before !== null && (await holdsBeyond(fetch, order, before, rows.at(-1)?.position ?? null));
  } else {
    // Forward: `first` (or `maxPageSize`) rows after `after`; with `last` as well, enough rows to
    // know whether more than `last` edges lie between the cursors.
    const take = first ?? maxPageSize;
    const fetched = await countBeside(
      fetch({ order, after, before, offset: 0, limit: Math.max(take, last ?? 0) + 1 }),
    );
    const kept = fetched.slice(0, take);
    rows = last === null ? kept : kept.slice(Math.max(0, kept.length - last));
    hasNextPage = fetched.length > take;
    hasPreviousPage =
      last === null
        ? after !== null &&
          (await holdsBeyond(fetch, invertOrdering(order), after, rows[0]?.position ?? null))
        : fetched.length > last;
  }

  const cursors = await mintCursors(
    rows.map((r) => ({ offset: 0, reverse: false, position: r.position })),
    order,
    protection,
    DEFAULT_MAX_CURSOR_LENGTH,
  );
  const edges = rows.map((r, i) => Object.freeze({ node: r.row, cursor: cursors[i]! }));
  const pageInfo = Object.freeze({
    hasNextPage,
    hasPreviousPage,
    startCursor: edges[0]?.cursor ?? null,
    endCursor: edges.at(-1)?.cursor ?? null,
  });
  const counted = counting === null ? null : await (counting as Promise<CachedCountResult>);
  if (counted === null) return Object.freeze({ edges: Object.freeze(edges), pageInfo });
  return Object.freeze({ edges: Object.freeze(edges), pageInfo, totalCount: counted.value });
}
