import type { OrderedQuery } from '@pagewise/core';
import { type OrderingInput, parseOrdering, ValidationError } from '@pagewise/core';
import type { OpenApiParameter } from '../openapi/schema-types.js';
import type { OrderingSource, PaginationView } from '../pagination/base-pagination.js';
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
  /** The query parameters it reads, for the OpenAPI document (DRF's `get_schema_operation_parameters`). */
  getSchemaOperationParameters?(view: FilterView): OpenApiParameter[];
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
  /**
   * Most comma-separated terms `?ordering=` may hold, empty and unknown ones included; more is a
   * 400. `null` lifts the cap (the terms are still deduplicated).
   * @default 20
   */
  maxOrderingTerms?: number | null;
  /** @default ApiSettings.defaults */
  settings?: ApiSettings;
}

/**
 * DRF's `OrderingFilter`: `?ordering=title,-published` orders by the named fields that are
 * declared in `orderingFields` (a leading `-` for descending); unknown fields are dropped,
 * never passed to the query, and a field named again is dropped too (it cannot change the
 * order). More than `maxOrderingTerms` terms is a 400, so the work a request causes stays
 * bounded. Without a valid field, the default ordering applies. Cursor
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
  /** @default 20 */
  maxOrderingTerms: number | null = 20;

  constructor(options: OrderingFilterOptions = {}) {
    this.orderingFields = options.orderingFields ?? null;
    this.ordering = options.ordering ?? null;
    if (options.maxOrderingTerms !== undefined) this.maxOrderingTerms = options.maxOrderingTerms;
    this.orderingParam = options.orderingParam ?? (options.settings ?? ApiSettings.defaults).orderingParam;
  }

  /** The declared fields: the filter's own, else the view's. */
  getValidFields(view?: FilterView): readonly string[] {
    return this.orderingFields ?? view?.orderingFields ?? [];
  }

  /**
   * Keeps the terms whose field (without `-`) is declared, each field once: `name,-name` orders
   * by `name` only, as SQL would (a second key on the same column never breaks a tie).
   */
  removeInvalidFields(terms: readonly string[], view?: FilterView): string[] {
    const valid = this.getValidFields(view);
    const seen = new Set<string>();
    return terms.filter((term) => {
      const field = term.startsWith('-') ? term.slice(1) : term;
      if (!valid.includes(field) || seen.has(field)) return false;
      seen.add(field);
      return true;
    });
  }

  /**
   * Refuses `raw` when it holds more than `maxOrderingTerms` terms, counting commas only up to the
   * cap: a megabyte of commas costs no more than the cap.
   */
  #checkTermCount(raw: string): void {
    const max = this.maxOrderingTerms;
    if (max === null) return;
    let terms = 1;
    for (let comma = raw.indexOf(','); comma !== -1 && terms <= max; comma = raw.indexOf(',', comma + 1)) {
      terms += 1;
    }
    if (terms > max) {
      throw new ValidationError(
        `Too many ordering terms: at most ${max} are accepted in "${this.orderingParam}".`,
        'too_many_ordering_terms',
      );
    }
  }

  /**
   * DRF's `get_schema_operation_parameters`: the `ordering` query parameter, naming the fields.
   *
   * @example
   * new OrderingFilter({ orderingFields: ['title'] }).getSchemaOperationParameters()[0]?.name // 'ordering'
   */
  getSchemaOperationParameters(view?: FilterView): OpenApiParameter[] {
    const fields = this.getValidFields(view);
    const named = fields.length > 0 ? `: ${fields.join(', ')}, each with a leading - for descending` : '';
    return [
      {
        name: this.orderingParam,
        required: false,
        in: 'query',
        description: `Which field to use when ordering the results${named}.`,
        schema: { type: 'string' },
      },
    ];
  }

  /** @default this.ordering, else the view's `ordering` */
  getDefaultOrdering(view?: FilterView): OrderingInput | null {
    return this.ordering ?? view?.ordering ?? null;
  }

  /**
   * The client's valid terms (deduplicated), or the default ordering. Throws `ValidationError`
   * (400) past `maxOrderingTerms`.
   *
   * @example
   * // ?ordering=-title,secret  with orderingFields ['title']
   * filter.getOrdering(request, query, view) // ['-title']
   */
  getOrdering(request: ApiRequest, _query: OrderedQuery<unknown>, view?: FilterView): OrderingInput | null {
    const raw = request.queryParams.get(this.orderingParam);
    if (raw) {
      this.#checkTermCount(raw);
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
