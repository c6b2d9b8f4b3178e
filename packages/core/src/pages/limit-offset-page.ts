import type { OrderedQuery } from '../contract/ordered-query.js';
import { countTimeoutOf } from '../contract/page-count.js';
import { parsePythonBigInt, positiveIntOr } from '../url/positive-int.js';
import { onPublicOrigin } from '../url/public-origin.js';
import { requestUrl } from '../url/query-string.js';
import { type WarningHook, warnIfUnordered, warnOnce, warnUnbounded } from '../warnings.js';
import { offsetTooLarge } from './max-offset.js';
import { requestedLimit } from './page-size.js';
import { PageValue } from './page-value.js';
import type { LimitOffsetPaginated } from './paginated.js';

/**
 * Options of `limitOffsetPage`: DRF's `LimitOffsetPagination` options in camelCase.
 *
 * @example
 * const window: LimitOffsetPageOptions = { defaultLimit: 20, maxLimit: 100 };
 */
export interface LimitOffsetPageOptions {
  /** Limit when the client sends none; without it such a request is not paginated. @default null */
  defaultLimit?: number | null;
  /** @default 'limit' */
  limitQueryParam?: string;
  /** @default 'offset' */
  offsetQueryParam?: string;
  /** Upper bound of a client-chosen limit. @default null */
  maxLimit?: number | null;
  /** Largest offset a client may ask for; beyond it the answer is 404. @default null (no cap) */
  maxOffset?: number | null;
  /**
   * Receives `UnorderedObjectListWarning` and `PaginationWarning` (no `maxLimit`), each distinct
   * warning once per hook (once per options object without one). @default emitWarning
   */
  onWarning?: WarningHook;
  /**
   * Milliseconds the count may run: one still running then is cancelled on the server and the
   * estimate answered instead (`countMode: 'estimated'` in the body; the page then learns whether
   * a next one exists from a look-ahead row, not from the estimate). @default null (no limit)
   */
  countTimeout?: number | null;
  /**
   * The origin links are built on (`https://api.example.org`), in place of `url`'s own: a
   * framework builds its request URL from the `Host` header (Hono's `c.req.url`), so without it a
   * client chooses the host in every link. With it, `url` may be a path alone (Express's
   * `req.originalUrl`). @default null (`url`'s origin, trusted as given)
   */
  publicOrigin?: string | null;
}

/**
 * One limit/offset window as a frozen value. `body(data)` is DRF's `{ count, next, previous, results }`.
 *
 * @example
 * const page = await limitOffsetPage(query, request.url, { defaultLimit: 20 });
 * if (page === null) return Response.json(await everything());
 */
export interface OffsetPage<Row> {
  readonly rows: readonly Row[];
  /** Absolute URL of the next window, or `null` at the end. */
  readonly next: string | null;
  /** Absolute URL of the previous window, or `null` at offset 0. */
  readonly previous: string | null;
  /** `{ link: '<...>; rel="next", <...>; rel="prev"' }` when there is a link, else `{}`. */
  readonly headers: Readonly<Record<string, string>>;
  /** DRF's body around `data`, keys in DRF's order. */
  body<T>(data: readonly T[]): LimitOffsetPaginated<T>;
  readonly count: number;
  /** `'estimated'` when `countTimeout` cut the count short, else `'exact'`. */
  readonly countMode: 'exact' | 'estimated';
  readonly limit: number;
  readonly offset: number;
}

/** A limit/offset page value (see `PageValue`). */
class OffsetPageValue<Row> extends PageValue<Row> implements OffsetPage<Row> {
  declare count: number;
  declare countMode: 'exact' | 'estimated';
  declare limit: number;
  declare offset: number;

  constructor(
    rows: Row[],
    next: string | null,
    previous: string | null,
    count: number,
    countMode: 'exact' | 'estimated',
    limit: number,
    offset: number,
  ) {
    super(rows, next, previous);
    this.count = count;
    this.countMode = countMode;
    this.limit = limit;
    this.offset = offset;
    Object.freeze(this);
  }

  body<T>(data: readonly T[]): LimitOffsetPaginated<T> {
    const { count, next, previous } = this;
    if (this.countMode === 'estimated')
      return { count, countMode: 'estimated', next, previous, results: data as T[] };
    return { count, next, previous, results: data as T[] };
  }
}

/**
 * The client's integer exactly when parsing saturated it at `Number.MAX_SAFE_INTEGER`: DRF's
 * links carry Python ints, so `?limit=99999999999999999999999` is echoed as sent, not rounded.
 */
function exactInteger(text: string | null, value: number): bigint {
  if (value === Number.MAX_SAFE_INTEGER && text !== null) {
    const exact = parsePythonBigInt(text);
    if (exact !== null && exact > BigInt(value)) return exact;
  }
  return BigInt(value);
}

/**
 * The window a URL asks for (`?limit=20&offset=40`, DRF's `LimitOffsetPagination`): a count, then
 * `LIMIT/OFFSET`. Offsets past the end answer no rows with a previous link; `null` when neither the
 * URL nor `defaultLimit` gives a limit (not paginated: nothing is counted or fetched). A query
 * without an order warns (`UnorderedObjectListWarning`). `url` is trusted as given.
 *
 * @example
 * const page = await limitOffsetPage(query, c.req.url, { defaultLimit: 20, maxLimit: 100 });
 * return page === null ? c.json(await everything()) : c.json(page.body(page.rows), 200, page.headers);
 */
export async function limitOffsetPage<Row>(
  query: OrderedQuery<Row>,
  url: string | URL,
  options: LimitOffsetPageOptions = {},
): Promise<OffsetPage<Row> | null> {
  const { params, links } = requestUrl(onPublicOrigin(url, options.publicOrigin));
  const limitParam = options.limitQueryParam ?? 'limit';
  const offsetParam = options.offsetQueryParam ?? 'offset';
  const limit = requestedLimit(params, limitParam, options.maxLimit, options.defaultLimit ?? null);
  if (limit === null) return null;
  const warn = warnOnce(options);
  if ((options.maxLimit ?? null) === null) {
    warnUnbounded('limitOffsetPage', `the '${limitParam}' parameter`, 'maxLimit', warn);
  }
  warnIfUnordered(query, warn);
  const offset = positiveIntOr(params.get(offsetParam) ?? null, 0);
  const maxOffset = options.maxOffset ?? null;
  if (maxOffset !== null && offset > maxOffset) throw offsetTooLarge(offset, maxOffset);
  const timeout = countTimeoutOf('limitOffsetPage', options);
  const counted = await (timeout === null ? query.count() : query.count({ timeoutMs: timeout }));
  let count = counted.value;
  let rows: Row[];
  let following = false;
  if (counted.exact) {
    rows =
      count === 0 || offset >= count || limit === 0
        ? []
        : (await query.fetch({ order: null, after: null, offset, limit })).map((r) => r.row);
  } else {
    // An estimate cannot say where the rows end: a look-ahead row does, and the total is at least what was seen.
    const fetched =
      limit === 0 ? [] : await query.fetch({ order: null, after: null, offset, limit: limit + 1 });
    following = fetched.length > limit;
    rows = fetched.slice(0, limit).map((r) => r.row);
    count = Math.max(count, offset + rows.length + (following ? 1 : 0));
  }
  const exactLimit = exactInteger(params.get(limitParam) ?? null, limit);
  const exactOffset = exactInteger(params.get(offsetParam) ?? null, offset);
  const withLimit = String(exactLimit);
  const next = (counted.exact ? exactOffset + exactLimit >= BigInt(count) : !following)
    ? null
    : links.withValues({ [limitParam]: withLimit, [offsetParam]: String(exactOffset + exactLimit) });
  const previous =
    exactOffset <= 0n
      ? null
      : links.withValues({
          [limitParam]: withLimit,
          [offsetParam]: exactOffset - exactLimit <= 0n ? null : String(exactOffset - exactLimit),
        });
  return new OffsetPageValue(
    rows,
    next,
    previous,
    count,
    counted.exact ? 'exact' : 'estimated',
    limit,
    offset,
  );
}
