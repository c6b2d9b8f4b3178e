import type { CountCache } from '../contract/count-cache.js';
import type { OrderedQuery } from '../contract/ordered-query.js';
import { countCacheOf, countTimeoutOf } from '../contract/page-count.js';
import { NotFound } from '../errors.js';
import { onPublicOrigin } from '../url/public-origin.js';
import { requestUrl } from '../url/query-string.js';
import { type WarningHook, warnOnce, warnUnbounded } from '../warnings.js';
import { offsetTooLarge } from './max-offset.js';
import { type CountMode, InvalidPage, NumberedPages, type NumberedPagesOptions } from './numbered-pages.js';
import { pageSizeOf } from './page-size.js';
import { PageValue } from './page-value.js';
import type { PageNumberPaginated } from './paginated.js';

/**
 * Options of `pageNumberPage`: DRF's `PageNumberPagination` options in camelCase.
 *
 * @example
 * const articles: PageNumberPageOptions = { pageSize: 20, pageSizeQueryParam: 'page_size', maxPageSize: 100 };
 */
export interface PageNumberPageOptions {
  /** Rows per page: a positive integer. */
  pageSize: number;
  /** @default 'page' */
  pageQueryParam?: string;
  /** Lets the client choose the page size with this parameter. @default null */
  pageSizeQueryParam?: string | null;
  /** Upper bound of a client-chosen page size. @default null */
  maxPageSize?: number | null;
  /** Page values that mean "the last page". @default ['last'] */
  lastPageStrings?: readonly string[];
  /**
   * How the total is found: `exact` counts, `estimated` asks the adapter for an estimate, `none`
   * skips it (`count` is `null`); the body says which with `countMode` when not exact.
   * @default 'exact'
   */
  count?: CountMode;
  /**
   * Reuses each query's count for this many milliseconds. The cache lives with this options object
   * (kept on it, not enumerable), so define the options once, not per request; `countCache` shares
   * one cache between option objects instead. @default null (count on every request)
   */
  countCacheTtl?: number | null;
  /** A count cache to use (its own `ttlMs` applies); wins over `countCacheTtl`. @default null */
  countCache?: CountCache | null;
  /**
   * Milliseconds an exact count may run: one still running then is cancelled on the server and
   * the estimate answered instead, with `countMode: 'estimated'`. @default null (no limit)
   */
  countTimeout?: number | null;
  /** Largest row offset a page may start at; a deeper page is 404. @default null (no cap) */
  maxOffset?: number | null;
  /** 404 detail; DRF's `{page_number}` and `{message}` are replaced. @default 'Invalid page.' */
  invalidPageMessage?: string;
  /**
   * Receives `UnorderedObjectListWarning` and `PaginationWarning` (a client-chosen size without
   * `maxPageSize`), each distinct warning once per hook (once per options object without one).
   * @default emitWarning
   */
  onWarning?: WarningHook;
  /**
   * Splits the query into pages: `NumberedPages` or a subclass overriding `count()` (DRF's custom
   * `django_paginator_class`). @default NumberedPages
   */
  paginatorClass?: new (
    query: OrderedQuery<unknown>,
    perPage: number,
    options?: NumberedPagesOptions,
  ) => NumberedPages<unknown>;
  /**
   * The origin links are built on (`https://api.example.org`), in place of `url`'s own: a
   * framework builds its request URL from the `Host` header (Hono's `c.req.url`), so without it a
   * client chooses the host in every link. With it, `url` may be a path alone (Express's
   * `req.originalUrl`). @default null (`url`'s origin, trusted as given)
   */
  publicOrigin?: string | null;
}

/**
 * One numbered page as a frozen value. `body(data)` is DRF's `{ count, next, previous, results }`
 * (with `countMode` when the count was not exact, and `countAge` when a count cache answered it).
 *
 * @example
 * const page = await pageNumberPage(query, request.url, { pageSize: 20 });
 * return Response.json(page.body(page.rows.map(serialize)), { headers: page.headers });
 */
export interface NumberedPage<Row> {
  readonly rows: readonly Row[];
  /** Absolute URL of the next page, or `null` on the last. */
  readonly next: string | null;
  /** Absolute URL of the previous page, or `null` on the first. */
  readonly previous: string | null;
  /** `{ link: '<...>; rel="next", <...>; rel="prev"' }` when there is a link, else `{}`. */
  readonly headers: Readonly<Record<string, string>>;
  /** DRF's body around `data`, keys in DRF's order. */
  body<T>(data: readonly T[]): PageNumberPaginated<T>;
  readonly number: number;
  /** Total number of pages; `null` when the count was skipped. */
  readonly numPages: number | null;
  /** The total (an estimate with `count: 'estimated'`); `null` with `count: 'none'`. */
  readonly count: number | null;
  /** What the count was: an `estimated` request answered exactly says `exact`. */
  readonly countMode: CountMode;
  /** Milliseconds since a count cache took the count; `null` when it was taken for this request. */
  readonly countAgeMs: number | null;
  readonly hasNext: boolean;
  readonly hasPrevious: boolean;
  /** The page size this request was served with (the client's, when it may choose). */
  readonly pageSize: number;
}

/** A numbered page value (see `PageValue`). */
class NumberedPageValue<Row> extends PageValue<Row> implements NumberedPage<Row> {
  declare number: number;
  declare numPages: number | null;
  declare count: number | null;
  declare countMode: CountMode;
  declare countAgeMs: number | null;
  declare hasNext: boolean;
  declare hasPrevious: boolean;
  declare pageSize: number;

  constructor(fields: Omit<NumberedPage<Row>, 'body' | 'headers'>) {
    super(fields.rows, fields.next, fields.previous);
    this.number = fields.number;
    this.numPages = fields.numPages;
    this.count = fields.count;
    this.countMode = fields.countMode;
    this.countAgeMs = fields.countAgeMs;
    this.hasNext = fields.hasNext;
    this.hasPrevious = fields.hasPrevious;
    this.pageSize = fields.pageSize;
    Object.freeze(this);
  }

  body<T>(data: readonly T[]): PageNumberPaginated<T> {
    const { count, next, previous } = this;
    const results = data as T[];
    if (this.countAgeMs !== null) {
      const countAge = Math.floor(this.countAgeMs / 1000);
      return { count, countMode: this.countMode, countAge, next, previous, results };
    }
    return this.countMode === 'exact'
      ? { count, next, previous, results }
      : { count, countMode: this.countMode, next, previous, results };
  }
}

/**
 * Python's `str.format` with DRF's two placeholders. Other text, including unknown `{names}`,
 * is kept.
 */
function formatMessage(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{|\}\}|\{(\w+)\}/g, (match, name: string | undefined) =>
    match === '{{'
      ? '{'
      : match === '}}'
        ? '}'
        : name !== undefined && name in values
          ? values[name]!
          : match,
  );
}

/**
 * The numbered page a URL asks for (`?page=4`, DRF's `PageNumberPagination`): the count (exact,
 * estimated, cached or skipped), then `LIMIT/OFFSET`. A page that does not exist, or a number that
 * is not one, rejects with `NotFound` (`Invalid page.`); `lastPageStrings` name the last page.
 * `url` is trusted as given.
 *
 * @example
 * const page = await pageNumberPage(fromKysely(db.selectFrom('articles').selectAll().orderBy('id'), { db }), c.req.url, {
 *   pageSize: 20,
 * });
 * return c.json(page.body(page.rows), 200, page.headers);
 */
export async function pageNumberPage<Row>(
  query: OrderedQuery<Row>,
  url: string | URL,
  options: PageNumberPageOptions,
): Promise<NumberedPage<Row>> {
  const { params, links } = requestUrl(onPublicOrigin(url, options.publicOrigin));
  const pageSize = pageSizeOf('pageNumberPage', params, options);
  const mode = options.count ?? 'exact';
  const pageParam = options.pageQueryParam ?? 'page';
  const Pages = options.paginatorClass ?? NumberedPages;
  const warn = warnOnce(options);
  if (options.pageSizeQueryParam && (options.maxPageSize ?? null) === null) {
    warnUnbounded(
      'pageNumberPage',
      `pageSizeQueryParam '${options.pageSizeQueryParam}'`,
      'maxPageSize',
      warn,
    );
  }
  const paginator = new Pages(query, pageSize, {
    count: mode,
    countCache: countCacheOf('pageNumberPage', options, mode),
    countTimeout: countTimeoutOf('pageNumberPage', options),
    onWarning: warn,
  }) as NumberedPages<Row>;
  // Nothing waits for an estimate before fetching the page: ask for both at once (a second
  // connection, not a second round trip). The promise is cached; its errors surface when awaited.
  if (mode === 'estimated') paginator.countResult().catch(() => {});
  let raw: string | number = params.get(pageParam) || 1;
  try {
    if (typeof raw === 'string' && (options.lastPageStrings ?? ['last']).includes(raw)) {
      const last = await paginator.numPages();
      raw = Number.isNaN(last) ? raw : last;
    }
    const number = await paginator.validateNumber(raw);
    const offset = (number - 1) * pageSize;
    const maxOffset = options.maxOffset ?? null;
    if (maxOffset !== null && offset > maxOffset) throw offsetTooLarge(offset, maxOffset);
    const page = await paginator.page(number);
    const counted = await paginator.countResult();
    let numPages: number | null = null;
    if (mode !== 'none') {
      numPages = await paginator.numPages();
      // With an estimate, a total that agrees with what the look-ahead saw.
      if (mode === 'estimated') numPages = page.hasNext ? Math.max(numPages, page.number + 1) : page.number;
    }
    const next = page.hasNext ? links.with(pageParam, page.number + 1) : null;
    const previous = page.hasPrevious
      ? links.with(pageParam, page.number === 2 ? null : page.number - 1)
      : null;
    return new NumberedPageValue({
      rows: page.rows,
      next,
      previous,
      number: page.number,
      numPages,
      count: mode === 'none' ? null : await paginator.count(),
      countMode: mode === 'none' ? 'none' : counted.exact ? 'exact' : 'estimated',
      countAgeMs: counted.cached ? counted.ageMs : null,
      hasNext: page.hasNext,
      hasPrevious: page.hasPrevious,
      pageSize,
    });
  } catch (error) {
    if (error instanceof InvalidPage) {
      throw new NotFound(
        formatMessage(options.invalidPageMessage ?? 'Invalid page.', {
          page_number: String(raw),
          message: error.message,
        }),
      );
    }
    throw error;
  }
}
