import type { OrderedQuery } from '../contract/ordered-query.js';
import type { OrderingCheck, OrderingInput } from '../contract/ordering.js';
import { type CountMode, countFieldsOf, countPlan, type PageCountOptions } from '../contract/page-count.js';
import type { CursorEncryptionKey } from '../cursor/cursor-encryption.js';
import type { CursorSecret } from '../cursor/cursor-signature.js';
import { cursorProtection, keysetPage } from '../cursor/cursor-window.js';
import { ValidationError } from '../errors.js';

/** Options shared by the page functions that run without a request. */
export interface CursorOrderingOptions {
  /**
   * The ordering; the unique key is appended as in `CursorPagination`.
   * @default the query's own ordering, else '-created'
   */
  ordering?: OrderingInput | null;
}

/** Options of `paginateCursor`. */
export interface PaginateCursorOptions extends CursorOrderingOptions, PageCountOptions {
  /**
   * A total beside the page (`exact` or `estimated`), taken beside its one keyset statement: the
   * result then has `count` and `countMode`. @default 'none'
   */
  count?: CountMode;
  /** Rows per page: a positive integer. */
  pageSize: number;
  /** A token from an earlier result's `nextCursor`/`previousCursor`; absent or `null`: the first page. */
  cursor?: string | null;
  /** Signs tokens with HMAC-SHA256, as `CursorPagination`'s option (a list: the first signs, every one verifies). @default null */
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
  /** Largest residual offset a token may carry (only used without a unique key). @default 1000 */
  offsetCutoff?: number | null;
}

/** One page of `paginateCursor`: a frozen value. */
export interface CursorResult<Row> {
  readonly results: readonly Row[];
  /** Token of the next page, `null` on the last. */
  readonly nextCursor: string | null;
  /** Token of the previous page, `null` on the first. */
  readonly previousCursor: string | null;
  /** The total, only with a `count` option (an estimate when `countMode` says so). */
  readonly count?: number;
  /** How the total was found, only with a `count` option. */
  readonly countMode?: 'exact' | 'estimated';
  /** Milliseconds since a count cache took the count, only when one answered. */
  readonly countAgeMs?: number;
}

/** A count a client may have chosen: a non-negative (or positive) integer, else `400`. */
export function checkCount(name: string, value: number, least: 0 | 1): number {
  if (!Number.isSafeInteger(value) || value < least) {
    throw new ValidationError(`${name} must be a ${least === 0 ? 'non-negative' : 'positive'} integer.`);
  }
  return value;
}

/**
 * One keyset page without HTTP: what `CursorPagination` answers for a URL, for a queue worker, a
 * CLI or a resolver. One statement of `pageSize + 1` rows per call. Tokens are the ones
 * `CursorPagination` puts in its links for the same ordering and secret, both ways. A bad
 * `cursor` rejects with `NotFound` (`Invalid cursor`); a `pageSize` that is not a positive
 * integer with `ValidationError`.
 *
 * @example
 * let page = await paginateCursor(fromKysely(db.selectFrom('articles').selectAll(), { db }), {
 *   pageSize: 100,
 *   ordering: ['-published_at'],
 * });
 * while (page.nextCursor !== null) page = await paginateCursor(query, { pageSize: 100, cursor: page.nextCursor });
 */
export async function paginateCursor<
  Row,
  const Options extends PaginateCursorOptions = PaginateCursorOptions,
>(query: OrderedQuery<Row>, options: Options & OrderingCheck<Row, Options>): Promise<CursorResult<Row>> {
  const counting = countPlan('paginateCursor', query, options, 'none');
  const page = await keysetPage(query, {
    pageSize: checkCount('pageSize', options.pageSize, 1),
    ordering: options.ordering,
    token: options.cursor,
    ...cursorProtection(options),
    offsetCutoff: options.offsetCutoff === undefined ? 1000 : options.offsetCutoff,
    count: counting.take,
  });
  const result = { results: Object.freeze(page.rows), nextCursor: page.next, previousCursor: page.previous };
  if (page.counted === null) return Object.freeze(result);
  const { count, countMode, countAgeMs } = countFieldsOf(page.counted);
  return Object.freeze({
    ...result,
    count: count!,
    countMode: countMode as 'exact' | 'estimated',
    ...(countAgeMs === null ? {} : { countAgeMs }),
  });
}
