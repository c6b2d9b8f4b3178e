import type { CachedCountResult, CountCache } from '../contract/count-cache.js';
import type { OrderedQuery } from '../contract/ordered-query.js';
import { type CountMode, takeCount } from '../contract/page-count.js';
import { parsePythonInt } from '../url/positive-int.js';
import { type WarningHook, warnIfUnordered } from '../warnings.js';

export type { CountMode } from '../contract/page-count.js';

/** Django's `InvalidPage`: the requested page does not exist. `message` is Django's text. */
export class InvalidPage extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}
/** The page number is not an integer. */
export class PageNotAnInteger extends InvalidPage {}
/** The page number is below 1 or past the last page. */
export class EmptyPage extends InvalidPage {}

/** One numbered page. */
export interface NumberedRows<Row> {
  readonly number: number;
  readonly rows: Row[];
  readonly hasNext: boolean;
  readonly hasPrevious: boolean;
}

/** Options of `NumberedPages`. */
export interface NumberedPagesOptions {
  /** @default 'exact' */
  count?: CountMode;
  /** Django's `orphans`: a last page this small is merged into the one before. @default 0 */
  orphans?: number;
  /** @default true */
  allowEmptyFirstPage?: boolean;
  /** Receives `UnorderedObjectListWarning`. @default emitWarning (`process.emitWarning` where it exists) */
  onWarning?: WarningHook;
  /**
   * Reuses counts (exact or estimated) per query for the cache's time to live; queries whose
   * adapter gives no `countKey` are counted every time. @default null
   */
  countCache?: CountCache | null;
  /**
   * Milliseconds an exact count may run before it is cancelled on the server and the estimate
   * answered instead. @default null (no limit)
   */
  countTimeout?: number | null;
}

/**
 * Django's `Paginator` over an `OrderedQuery`, the engine of `pageNumberPage`: splits the query into
 * numbered pages of `perPage` rows. It is made per request (it caches the count). A subclass may
 * override `count()` (DRF's custom `django_paginator_class`), and `pageNumberPage` takes such a
 * class as its `paginatorClass`.
 *
 * With `count: 'estimated'` the total is the adapter's estimate and `'none'` skips it: both find
 * the next page with a look-ahead row instead of the count.
 *
 * @example
 * const paginator = new NumberedPages(fromArray(rows), 10);
 * const page = await paginator.page(await paginator.validateNumber('2'));
 */
export class NumberedPages<Row> {
  readonly query: OrderedQuery<Row>;
  readonly perPage: number;
  readonly countMode: CountMode;
  readonly orphans: number;
  readonly allowEmptyFirstPage: boolean;
  readonly countCache: CountCache | null;
  readonly countTimeout: number | null;
  #count: Promise<CachedCountResult> | undefined;

  constructor(query: OrderedQuery<Row>, perPage: number, options: NumberedPagesOptions = {}) {
    this.query = query;
    this.perPage = perPage;
    this.countMode = options.count ?? 'exact';
    this.orphans = options.orphans ?? 0;
    this.allowEmptyFirstPage = options.allowEmptyFirstPage ?? true;
    this.countCache = options.countCache ?? null;
    this.countTimeout = options.countTimeout ?? null;
    warnIfUnordered(query, options.onWarning);
  }

  /** Total number of rows (cached); an estimate in `estimated` mode, `NaN` in `none` mode. */
  async count(): Promise<number> {
    return (await this.countResult()).value;
  }

  /**
   * The count with whether it is exact (an adapter without an estimator answers exactly) and
   * whether `countCache` answered it.
   */
  countResult(): Promise<CachedCountResult> {
    if (this.countMode === 'none') {
      return Promise.resolve({ value: Number.NaN, exact: false, cached: false, ageMs: 0 });
    }
    this.#count ??= this.#takeCount();
    return this.#count;
  }

  #takeCount(): Promise<CachedCountResult> {
    return takeCount(this.query, this.countMode as 'exact' | 'estimated', this.countCache, this.countTimeout);
  }

  /** Number of pages: an empty list still has one page when `allowEmptyFirstPage`. */
  async numPages(): Promise<number> {
    const count = await this.count();
    if (Number.isNaN(count)) return Number.NaN;
    if (count === 0 && !this.allowEmptyFirstPage) return 0;
    return Math.ceil(Math.max(1, count - this.orphans) / this.perPage);
  }

  /**
   * Django's `validate_number`: an integer (Python `int()` rules) of an existing page.
   * Throws `PageNotAnInteger` or `EmptyPage`.
   */
  async validateNumber(raw: string | number): Promise<number> {
    const number = typeof raw === 'number' ? (Number.isInteger(raw) ? raw : null) : parsePythonInt(raw);
    if (number === null) throw new PageNotAnInteger('That page number is not an integer');
    if (number < 1) throw new EmptyPage('That page number is less than 1');
    if (this.countMode === 'exact' && number > (await this.numPages())) {
      if (!(number === 1 && this.allowEmptyFirstPage)) throw new EmptyPage('That page contains no results');
    }
    return number;
  }

  /** The rows of page `number` (validated first). */
  async page(number: number): Promise<NumberedRows<Row>> {
    const valid = await this.validateNumber(number);
    const bottom = (valid - 1) * this.perPage;
    if (this.countMode !== 'exact') {
      const rows = await this.query.fetch({
        order: null,
        after: null,
        offset: bottom,
        limit: this.perPage + 1,
      });
      if (rows.length === 0 && valid > 1) throw new EmptyPage('That page contains no results');
      return {
        number: valid,
        rows: rows.slice(0, this.perPage).map((r) => r.row),
        hasNext: rows.length > this.perPage,
        hasPrevious: valid > 1,
      };
    }
    const count = await this.count();
    let top = bottom + this.perPage;
    if (top + this.orphans >= count) top = count;
    const rows =
      top > bottom
        ? await this.query.fetch({ order: null, after: null, offset: bottom, limit: top - bottom })
        : [];
    return {
      number: valid,
      rows: rows.map((r) => r.row),
      hasNext: valid < (await this.numPages()),
      hasPrevious: valid > 1,
    };
  }
}
