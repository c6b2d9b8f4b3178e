import {
  ApiRequest,
  type CountOptions,
  type CountResult,
  type OrderedQuery,
  type OrderTerm,
  type WindowSpec,
} from '@pagewise/rest';

/** DRF's `APIRequestFactory` host. */
export const HOST = 'http://testserver';

/** A GET request for a path (or an absolute URL that a link answered). */
export function get(pathOrUrl: string): ApiRequest {
  return new ApiRequest({ url: pathOrUrl.startsWith('http') ? pathOrUrl : `${HOST}${pathOrUrl}` });
}

/** Python's `range(start, stop)`. */
export function range(start: number, stop: number): number[] {
  return Array.from({ length: stop - start }, (_, i) => start + i);
}

/** DRF's duplicate-heavy cursor list. */
export const DUPLICATES = [
  1, 1, 1, 1, 1, 1, 2, 3, 4, 4, 4, 4, 5, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 8, 9, 9, 9, 9, 9, 9,
] as const;

/** Every call a wrapped query received, to assert what a paginator asked for. */
export interface QueryLog {
  counts: Array<CountOptions | undefined>;
  fetches: WindowSpec[];
}

/**
 * Wraps a query to record its calls, optionally to pose as an unordered query, as a query with no
 * unique key (DRF's position + offset cursors) or to answer another count.
 */
export function wrapQuery<Row>(
  inner: OrderedQuery<Row>,
  options: {
    log?: QueryLog;
    ordered?: boolean;
    uniqueKey?: string | null;
    count?: (options?: CountOptions) => Promise<CountResult>;
  } = {},
): OrderedQuery<Row> {
  const wrapped: OrderedQuery<Row> = {
    adapter: inner.adapter,
    ordering: inner.ordering,
    ordered: options.ordered ?? inner.ordered,
    uniqueKey: options.uniqueKey === undefined ? inner.uniqueKey : options.uniqueKey,
    description: inner.description,
    orderBy: (terms: readonly OrderTerm[]) => wrapQuery(inner.orderBy(terms), options),
    count: (countOptions) => {
      options.log?.counts.push(countOptions);
      return options.count ? options.count(countOptions) : inner.count(countOptions);
    },
    fetch: (window) => {
      options.log?.fetches.push(window);
      return inner.fetch(window);
    },
  };
  return wrapped;
}

export function newLog(): QueryLog {
  return { counts: [], fetches: [] };
}
