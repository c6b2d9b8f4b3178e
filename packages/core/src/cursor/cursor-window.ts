import type { CachedCountResult } from '../contract/count-cache.js';
import {
  type FetchedRows,
  fetchedRowsOf,
  isInvalidBoundError,
  type OrderedQuery,
  type PositionValue,
  type WindowRow,
  type WindowSpec,
} from '../contract/ordered-query.js';
import {
  frozenKeyOrder,
  frozenReverse,
  type KeyTerm,
  type OrderingInput,
  withoutOrdering,
} from '../contract/ordering.js';
import { NotFound } from '../errors.js';
import {
  type Cursor,
  CursorDecodeError,
  checkTtl,
  DEFAULT_MAX_CURSOR_LENGTH,
  decodeCursor,
  decodeCursorAsync,
  encodeCursor,
  encodeCursorAsync,
  encodeCursors,
  samePosition,
} from './cursor-codec.js';
import { type CursorEncryptionKey, encryptionKeys } from './cursor-encryption.js';
import { type CursorSecret, signingKey } from './cursor-signature.js';

/** How tokens are protected, as every page function takes it. */
export interface CursorProtection {
  readonly secret: CursorSecret | null;
  /** @default null (not encrypted) */
  readonly encryptionKey?: CursorEncryptionKey | null | undefined;
  /** Milliseconds a token lives. @default null (forever) */
  readonly ttl?: number | null | undefined;
}

/**
 * The protection an options object asks for, checked: a short encryption key, or a `cursorTtl`
 * with neither a secret nor a key, is a `ConfigurationError` (at a page function's first call,
 * whether or not it was given a token).
 *
 * @example
 * const protection = cursorProtection({ cursorSecret: null, cursorTtl: 60_000 }) // throws: nothing protects the age
 */
export function cursorProtection(options: {
  readonly cursorSecret?: CursorSecret | null | undefined;
  readonly cursorEncryptionKey?: CursorEncryptionKey | null | undefined;
  readonly cursorTtl?: number | null | undefined;
}): CursorProtection {
  const protection = {
    secret: options.cursorSecret ?? null,
    encryptionKey: options.cursorEncryptionKey ?? null,
    ttl: options.cursorTtl ?? null,
  };
  // Checked where set only: the common page (neither set) enters neither file.
  if (protection.encryptionKey !== null) encryptionKeys(protection.encryptionKey);
  if (protection.ttl !== null) checkTtl(protection);
  return protection;
}

// The keyset machinery the page functions share (`cursorPage`, `paginateCursor`, `streamRows`,
// `connectionFromQuery`), so their tokens and pages are the same ones.

/** How a token is read: the codec's options plus the 404 detail. */
export interface CursorReadOptions extends CursorProtection {
  /** `orderingFingerprint(order)`, when the caller keeps it. @default computed from `order` */
  readonly fingerprint?: string | undefined;
  readonly offsetCutoff: number | null;
  /** @default DEFAULT_MAX_CURSOR_LENGTH */
  readonly maxLength?: number | undefined;
  /** @default 'Invalid cursor' */
  readonly invalidMessage?: string | undefined;
}

/**
 * Decodes `token` for `order`; any defect is `404 Invalid cursor`. Empty or absent: `null`. Not
 * for encrypted tokens (see `readCursorAsync`).
 */
export function readCursor(
  token: string | null | undefined,
  order: readonly KeyTerm[],
  options: CursorReadOptions,
): Cursor | null {
  // Every page function reads its token first: a secret that could sign nothing fails here, before
  // any statement runs, even on a first page that has no token.
  if (options.secret != null) signingKey(options.secret);
  if (token === null || token === undefined || token === '') return null;
  try {
    return decodeCursor(token, codecOptions(order, options));
  } catch (error) {
    if (error instanceof CursorDecodeError) throw new NotFound(options.invalidMessage ?? 'Invalid cursor');
    throw error;
  }
}

function codecOptions(order: readonly KeyTerm[], options: CursorReadOptions) {
  return {
    order,
    fingerprint: options.fingerprint,
    secret: options.secret,
    encryptionKey: options.encryptionKey,
    ttl: options.ttl,
    offsetCutoff: options.offsetCutoff,
    maxLength: options.maxLength ?? DEFAULT_MAX_CURSOR_LENGTH,
  };
}

/**
 * `readCursor` for every protection: synchronous work (a promise already settled) unless tokens
 * are encrypted, when Web Crypto decrypts them.
 */
export async function readCursorAsync(
  token: string | null | undefined,
  order: readonly KeyTerm[],
  options: CursorReadOptions,
): Promise<Cursor | null> {
  if (options.encryptionKey === null || options.encryptionKey === undefined) {
    return readCursor(token, order, options);
  }
  if (token === null || token === undefined || token === '') return null;
  try {
    return await decodeCursorAsync(token, codecOptions(order, options));
  } catch (error) {
    if (error instanceof CursorDecodeError) throw new NotFound(options.invalidMessage ?? 'Invalid cursor');
    throw error;
  }
}

/**
 * The tokens of `cursors` under `protection` (encrypted ones together, each with its own IV),
 * `null` for `null`.
 */
export function mintCursors(
  cursors: ReadonlyArray<Cursor | null>,
  order: readonly KeyTerm[],
  protection: CursorProtection,
  maxLength: number,
): Promise<Array<string | null>> {
  const options = { order, ...protection, maxLength };
  if (protection.encryptionKey === null || protection.encryptionKey === undefined) {
    // Signed or plain tokens are minted synchronously: no promise per cursor.
    return Promise.resolve(cursors.map((cursor) => (cursor === null ? null : encodeCursor(cursor, options))));
  }
  return Promise.all(cursors.map((cursor) => (cursor === null ? null : encodeCursorAsync(cursor, options))));
}

/** Fetches one window; a bound the adapter cannot compare (a forged position) is `404 Invalid cursor`. */
export async function fetchWindow<Row>(
  query: OrderedQuery<Row>,
  window: Parameters<OrderedQuery<Row>['fetch']>[0],
  invalidMessage = 'Invalid cursor',
): Promise<ReadonlyArray<WindowRow<Row>>> {
  try {
    return await query.fetch(window);
  } catch (error) {
    throw notFoundIfInvalidBound(error, invalidMessage);
  }
}

/** What a failed fetch throws: a bound the adapter cannot compare is `404`, anything else itself. */
function notFoundIfInvalidBound(error: unknown, invalidMessage: string): unknown {
  return isInvalidBoundError(error) ? new NotFound(invalidMessage) : error;
}

/** One cursor page before any token is made of it: the rows and what its cursors stand on. */
export interface CursorWindow<Row> {
  readonly rows: Row[];
  readonly positions: LazyPositions;
  readonly pageSize: number;
  readonly cursor: Cursor | null;
  /** Whether positions are unique (the ordering holds the query's unique key): no two rows tie. */
  readonly unique: boolean;
  readonly hasNext: boolean;
  readonly hasPrevious: boolean;
  /** What follows the last row in page order: the look-ahead row's position, or the bound. Read when asked. */
  nextPosition(): readonly PositionValue[] | null;
  /** What precedes the first row in page order: the bound, or the look-ahead row's position. */
  previousPosition(): readonly PositionValue[] | null;
}

/**
 * The window `cursor` points at: one statement of `pageSize + 1` rows (the look-ahead row says
 * whether the walk goes on), fetched in reverse order for a `previous` cursor (`frozenReverse`,
 * frozen so adapters may recognise it as they recognise `order`).
 */
function cursorWindowSpec(order: readonly KeyTerm[], cursor: Cursor | null, pageSize: number): WindowSpec {
  const reverse = cursor?.reverse ?? false;
  return {
    order: reverse ? frozenReverse(order) : order,
    after: cursor?.position ?? null,
    offset: cursor?.offset ?? 0,
    limit: pageSize + 1,
  };
}

/** The page `cursor` points at, from the adapter's answer to `cursorWindowSpec`: a `previous` page turned back. */
function cursorWindowOf<Row>(
  query: OrderedQuery<Row>,
  order: readonly KeyTerm[],
  cursor: Cursor | null,
  pageSize: number,
  answer: FetchedRows<Row> | ReadonlyArray<WindowRow<Row>>,
): CursorWindow<Row> {
  const reverse = cursor?.reverse ?? false;
  const currentPosition = cursor?.position ?? null;
  const fetched = 'rows' in answer ? answer : fetchedRowsOf(answer);
  // A copy: the adapter may read positions from the array it answered.
  const rows = fetched.rows.slice(0, pageSize);
  const lookAhead = fetched.rows.length > pageSize;
  // The look-ahead row's position only matters where rows can tie (DRF's offset walk).
  const following = () => (lookAhead ? fetched.position(pageSize) : null);
  if (reverse) rows.reverse();
  const started = currentPosition !== null || (cursor?.offset ?? 0) > 0;
  return {
    rows,
    positions: new LazyPositions(fetched, rows.length, reverse),
    pageSize,
    cursor,
    unique: holdsUniqueKey(order, query),
    hasNext: reverse ? started : lookAhead,
    hasPrevious: reverse ? lookAhead : started,
    nextPosition: reverse ? () => currentPosition : following,
    previousPosition: reverse ? following : () => currentPosition,
  };
}

/**
 * Whether `order` holds the query's unique key (marked, or by name), every column of a composite
 * one: its positions never tie. Read here, not through `uniqueKeyColumns`: a page's data path
 * enters no other file for it.
 */
function holdsUniqueKey(
  order: readonly KeyTerm[],
  query: Pick<OrderedQuery<unknown>, 'uniqueKey' | 'uniqueKeys'>,
): boolean {
  const keys = query.uniqueKeys;
  if (keys !== undefined && keys.length > 1)
    return keys.every((key) => order.some((term) => term.field === key));
  const uniqueKey = keys?.[0] ?? query.uniqueKey;
  for (let i = 0; i < order.length; i += 1) {
    const term = order[i]!;
    if (term.unique === true || term.field === uniqueKey) return true;
  }
  return false;
}

/** The rows' positions by index, each read from its row only when asked for. */
interface PositionList {
  readonly length: number;
  at(index: number): readonly PositionValue[] | undefined;
  /**
   * Whether the rows at page indexes `a` and `b` tie as the backend compares them; `length` (a
   * forward page) or `-1` (a reverse one) is the look-ahead row. Absent: positions compare by value.
   */
  readonly tied?: ((a: number, b: number) => boolean) | undefined;
}

/**
 * The positions of a page cut from `FetchedRows`: the first `length` rows fetched, in reverse
 * when the page was fetched backwards. Each is read from the adapter when asked for: links need
 * the first and last rows', not all of them.
 */
class LazyPositions implements PositionList {
  readonly #fetched: FetchedRows<unknown>;
  readonly #reverse: boolean;
  readonly length: number;
  /** The backend's ties, by page index (the look-ahead row included: see `PositionList`). */
  readonly tied: ((a: number, b: number) => boolean) | undefined;

  constructor(fetched: FetchedRows<unknown>, length: number, reverse: boolean) {
    this.#fetched = fetched;
    this.length = length;
    this.#reverse = reverse;
    // A closure only where the backend reports ties (an ordering without a unique term).
    this.tied =
      fetched.tied === undefined
        ? undefined
        : (a, b) => fetched.tied!(this.#fetchedIndex(a), this.#fetchedIndex(b));
  }

  /** The index in the fetched rows of page index `index`: the page is their first rows, maybe reversed. */
  #fetchedIndex(index: number): number {
    return this.#reverse ? this.length - 1 - index : index;
  }

  at(index: number): readonly PositionValue[] | undefined {
    const i = index < 0 ? this.length + index : index;
    if (i < 0 || i >= this.length) return undefined;
    return this.#fetched.position(this.#fetchedIndex(i));
  }

  /** The first and last rows' positions (what a page's links stand on), in one read where the adapter can. */
  ends(): [readonly PositionValue[], readonly PositionValue[]] {
    const first = this.#fetchedIndex(0);
    const last = this.#fetchedIndex(this.length - 1);
    const fetched = this.#fetched;
    if (fetched.positionsAt !== undefined) {
      const [a, b] = fetched.positionsAt([first, last]);
      return [a!, b!];
    }
    return [fetched.position(first), fetched.position(last)];
  }
}

/**
 * The next and previous pages' cursors. Unique positions never tie: the next page starts after the
 * last row and the previous one before the first, with no offset, from the two positions read in
 * one call; otherwise DRF's walk past the ties (`nextCursorOf`, `previousCursorOf`).
 */
export function linkCursors(page: CursorWindow<unknown>): [Cursor | null, Cursor | null] {
  if (!page.unique || (page.cursor?.offset ?? 0) !== 0) return [nextCursorOf(page), previousCursorOf(page)];
  if (page.positions.length === 0) {
    return [
      page.hasNext ? { offset: 0, reverse: false, position: null } : null,
      page.hasPrevious ? { offset: 0, reverse: true, position: null } : null,
    ];
  }
  if (!page.hasNext && !page.hasPrevious) return [null, null];
  const [first, last] = page.positions.ends();
  return [
    page.hasNext ? { offset: 0, reverse: false, position: last } : null,
    page.hasPrevious ? { offset: 0, reverse: true, position: first } : null,
  ];
}

/**
 * The next page's cursor: normally "after the last row". Only when rows share a position (no
 * unique key) does it need DRF's offset walk.
 */
export function nextCursorOf(page: CursorWindow<unknown>): Cursor | null {
  if (!page.hasNext) return null;
  const { cursor } = page;
  const positions = page.positions;

  const fromLast = positions.length > 0 && cursor?.reverse && cursor.offset !== 0;
  // `nextPosition` is the look-ahead row's on a forward page, else the cursor's bound.
  const compare = fromLast ? positions.at(-1)! : page.nextPosition();
  const at = fromLast ? positions.length - 1 : cursor?.reverse ? undefined : positions.length;
  let { offset, position, found } = walkPastTies(positions, compare, at, -1);
  if (positions.length > 0 && !found) {
    if (!page.hasPrevious) {
      offset = page.pageSize;
      position = null;
    } else if (cursor?.reverse) {
      offset = 0;
      position = page.previousPosition();
    } else {
      offset = (cursor?.offset ?? 0) + page.pageSize;
      position = page.previousPosition();
    }
  }
  // An empty page (reached by a stale or forged cursor) has no row to stand on: only a reverse cursor
  // lands there with a next link, and nothing lies before its bound, so the next page is the first one.
  if (positions.length === 0) position = null;
  return { offset, reverse: false, position };
}

/**
 * DRF's walk past the rows tied with `compare`, from the page's last row backwards (`step` -1) or
 * its first row forwards (`step` 1): the first position that differs and how many rows it skipped.
 * `at` is the page index of the row `compare` is (`undefined` for the cursor's bound, which no
 * row of the page ties with: they all lie strictly past it). Rows tie as the backend says where
 * it says (`tied`: its collation's equality), else by value.
 */
function walkPastTies(
  positions: PositionList,
  compare: readonly PositionValue[] | null,
  at: number | undefined,
  step: 1 | -1,
): { offset: number; position: readonly PositionValue[] | null; found: boolean } {
  let offset = 0;
  const tied = positions.tied;
  for (let i = step === 1 ? 0 : positions.length - 1; i >= 0 && i < positions.length; i += step) {
    const current = positions.at(i)!;
    const same = tied !== undefined && at !== undefined ? tied(i, at) : samePosition(current, compare);
    if (!same) return { offset, position: current, found: true };
    compare = current;
    at = i;
    offset += 1;
  }
  return { offset, position: null, found: false };
}

/** The previous page's cursor: "before the first row", mirrored from `nextCursorOf`. */
export function previousCursorOf(page: CursorWindow<unknown>): Cursor | null {
  if (!page.hasPrevious) return null;
  const { cursor } = page;
  const positions = page.positions;

  const fromFirst = positions.length > 0 && cursor && !cursor.reverse && cursor.offset !== 0;
  // `previousPosition` is the look-ahead row's on a reverse page, else the cursor's bound.
  const compare = fromFirst ? positions.at(0)! : page.previousPosition();
  const at = fromFirst ? 0 : cursor?.reverse ? -1 : undefined;
  let { offset, position, found } = walkPastTies(positions, compare, at, 1);
  if (positions.length > 0 && !found) {
    if (!page.hasNext) {
      offset = page.pageSize;
      position = null;
    } else if (cursor?.reverse) {
      offset = cursor.offset + page.pageSize;
      position = page.nextPosition();
    } else {
      offset = 0;
      position = page.nextPosition();
    }
  }
  // An empty forward page has nothing after its bound, so the page before it is the last page; the
  // bound itself would skip the row it names.
  if (positions.length === 0) position = null;
  return { offset, reverse: true, position };
}

/** What `keysetPage` needs beyond the query: DRF's cursor options. */
export interface KeysetPageOptions {
  /** Rows per page. */
  readonly pageSize: number;
  /** @default the query's own ordering, else '-created' */
  readonly ordering?: OrderingInput | null | undefined;
  /** The token asked for; absent, `null` or empty: the first page. */
  readonly token?: string | null | undefined;
  readonly secret: CursorSecret | null;
  /** @default null (not encrypted) */
  readonly encryptionKey?: CursorEncryptionKey | null | undefined;
  /** @default null (tokens never expire) */
  readonly ttl?: number | null | undefined;
  /** Largest residual offset a token may carry; `null`: no clamp. */
  readonly offsetCutoff: number | null;
  /** @default DEFAULT_MAX_CURSOR_LENGTH */
  readonly maxLength?: number | undefined;
  /** 404 detail for a token that cannot be used. @default 'Invalid cursor' */
  readonly invalidMessage?: string | undefined;
  /**
   * Takes the page's count, called once the page's statement is on its way (never before it, and
   * never awaited before the page's rows are): the count runs beside the page. @default null (no count)
   */
  readonly count?: (() => Promise<CachedCountResult>) | null | undefined;
}

/** One keyset page as tokens: its rows, the cursor it was asked for, and its neighbours' tokens. */
export interface KeysetPage<Row> {
  readonly rows: Row[];
  readonly order: readonly KeyTerm[];
  readonly cursor: Cursor | null;
  readonly next: string | null;
  readonly previous: string | null;
  /** What `options.count` answered; `null` without one. */
  readonly counted: CachedCountResult | null;
}

/** A count whose page failed is not waited for; its own failure then goes unreported. */
function ignore(): void {}

/**
 * The page a token points at, as tokens (`paginateCursor`'s and `cursorPage`'s work): the key
 * order, the token decoded (`404 Invalid cursor` for any defect), one statement of `pageSize + 1`
 * rows, and the next and previous tokens minted from the rows the links stand on.
 *
 * @example
 * const { rows, next, previous } = await keysetPage(query, { pageSize: 20, token, secret: null, offsetCutoff: 1000 });
 */
export async function keysetPage<Row>(
  query: OrderedQuery<Row>,
  options: KeysetPageOptions,
): Promise<KeysetPage<Row>> {
  const order = frozenKeyOrder(query, options.ordering);
  const maxLength = options.maxLength ?? DEFAULT_MAX_CURSOR_LENGTH;
  const encrypted = options.encryptionKey !== null && options.encryptionKey !== undefined;
  const cursor = encrypted
    ? await readCursorAsync(options.token, order, options)
    : readCursor(options.token, order, options);
  const spec = cursorWindowSpec(order, cursor, options.pageSize);
  // The page waits on the adapter's promise itself (`fetchWindow` inlined): no async hop between.
  let answer: FetchedRows<Row> | ReadonlyArray<WindowRow<Row>>;
  let counting: Promise<CachedCountResult> | null = null;
  try {
    const pending = query.fetchRows !== undefined ? query.fetchRows(spec) : query.fetch(spec);
    if (options.count) {
      counting = options.count();
      counting.catch(ignore);
    }
    answer = await pending;
  } catch (error) {
    throw withoutOrdering(
      notFoundIfInvalidBound(error, options.invalidMessage ?? 'Invalid cursor'),
      query,
      options.ordering,
    );
  }
  const window = cursorWindowOf(query, order, cursor, options.pageSize, answer);
  const [nextCursor, previousCursor] = linkCursors(window);
  const [next = null, previous = null] = encrypted
    ? await mintCursors([nextCursor, previousCursor], order, options, maxLength)
    : encodeCursors(nextCursor, previousCursor, {
        order,
        secret: options.secret,
        ttl: options.ttl,
        maxLength,
      });
  const counted = counting === null ? null : await counting;
  return { rows: window.rows, order, cursor, next, previous, counted };
}
