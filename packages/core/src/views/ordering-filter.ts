import type { OrderingSource, PaginationView } from '../pagination/base-pagination.js';
import type { OrderedQuery } from '../pagination/ordered-query.js';
import { type OrderingInput, parseOrdering } from '../pagination/ordering.js';
import type { ApiRequest } from '../request/api-request.js';
import { ApiSettings } from '../settings.js';

/**
 * What filter backends may read on the view that runs them.
 *
 * @example
 * new OrderingFilter().getOrdering(request, query, { ordering: '-published', orderingFields: ['title'] })
 */
export interface FilterView extends PaginationView {
  /** The default ordering. */
  readonly ordering?: OrderingInput | null;
  /** Fields a client may order by. */
  readonly orderingFields?: readonly string[] | null;
}

/**
 * Narrows or reorders a list query before it is paginated (DRF's `BaseFilterBackend`).
 *
 * @example
 * const published: FilterBackend = { filterQueryset: (request, query) => query };
 */
export interface FilterBackend {
  filterQueryset<Row>(
    request: ApiRequest,
    query: OrderedQuery<Row>,
    view: FilterView,
  ): OrderedQuery<Row> | Promise<OrderedQuery<Row>>;
}

/**
 * Options of `OrderingFilter`.
 *
 * @example
 * new OrderingFilter({ orderingFields: ['title', 'published'], ordering: '-published' })
 */
export interface OrderingFilterOptions {
  /**
   * Fields a client may name in `?ordering=`; others are dropped. `null` takes the view's
   * `orderingFields`; with neither, clients cannot choose an ordering.
   * @default null
   */
  orderingFields?: readonly string[] | null;
  /** Ordering when the client names no valid field. @default null (the view's `ordering`) */
  ordering?: OrderingInput | null;
  /** @default settings.orderingParam ('ordering') */
  orderingParam?: string;
  /** @default ApiSettings.defaults */
  settings?: ApiSettings;
}

/**
 * DRF's `OrderingFilter`: `?ordering=title,-published` orders by the named fields that are
 * declared in `orderingFields` (a leading `-` for descending); unknown fields are dropped,
 * never passed to the query. Without a valid field, the default ordering applies. Cursor
 * pagination takes its ordering from here (`getOrdering`); offset styles get the query
 * reordered (`query.orderBy`).
 *
 * @example
 * filterBackends = [new OrderingFilter({ orderingFields: ['title', 'published'] })];
 */
export class OrderingFilter implements FilterBackend, OrderingSource {
  /** @default null (the view's `orderingFields`) */
  orderingFields: readonly string[] | null = null;
  /** @default null (the view's `ordering`) */
  ordering: OrderingInput | null = null;
  /** @default settings.orderingParam ('ordering') */
  orderingParam: string;

  constructor(options: OrderingFilterOptions = {}) {
    this.orderingFields = options.orderingFields ?? null;
    this.ordering = options.ordering ?? null;
    this.orderingParam = options.orderingParam ?? (options.settings ?? ApiSettings.defaults).orderingParam;
  }

  /** The declared fields: the filter's own, else the view's. */
  getValidFields(view?: FilterView): readonly string[] {
    return this.orderingFields ?? view?.orderingFields ?? [];
  }

  /** Keeps the terms whose field (without `-`) is declared. */
  removeInvalidFields(terms: readonly string[], view?: FilterView): string[] {
    const valid = this.getValidFields(view);
    return terms.filter((term) => valid.includes(term.startsWith('-') ? term.slice(1) : term));
  }

  /** @default this.ordering, else the view's `ordering` */
  getDefaultOrdering(view?: FilterView): OrderingInput | null {
    return this.ordering ?? view?.ordering ?? null;
  }

  /**
   * The client's valid terms, or the default ordering.
   *
   * @example
   * // ?ordering=-title,secret  with orderingFields ['title']
   * filter.getOrdering(request, query, view) // ['-title']
   */
  getOrdering(request: ApiRequest, _query: OrderedQuery<unknown>, view?: FilterView): OrderingInput | null {
    const raw = request.queryParams.get(this.orderingParam);
    if (raw) {
      const terms = this.removeInvalidFields(
        raw.split(',').map((term) => term.trim()),
        view,
      );
      if (terms.length > 0) return terms;
    }
    return this.getDefaultOrdering(view);
  }

  filterQueryset<Row>(request: ApiRequest, query: OrderedQuery<Row>, view: FilterView): OrderedQuery<Row> {
    const ordering = this.getOrdering(request, query as OrderedQuery<unknown>, view);
    if (ordering === null || ordering.length === 0) return query;
    return query.orderBy(parseOrdering(ordering));
  }
}
