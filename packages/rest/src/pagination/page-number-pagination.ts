import {
  CountCache,
  type CountMode,
  LinkTemplate,
  type NumberedPage,
  type OrderedQuery,
  type PageNumberPaginated,
  pageNumberPage,
} from '@pagewise/core';
import { type HtmlTemplate, type NumberedHtmlContext, numbersTemplate } from '../html/pagination-html.js';
import {
  integerQueryParameter,
  type JsonSchema,
  nullableUri,
  type OpenApiParameter,
  type SchemaOptions,
} from '../openapi/schema-types.js';
import type { ApiRequest } from '../request/api-request.js';
import type { ApiResponse } from '../request/api-response.js';
import { assignOptions } from '../settings.js';
import type { PaginationView } from './base-pagination.js';
import { getPageLinks } from './displayed-page-numbers.js';
import {
  type ClientPageSizeOptions,
  ClientSizedStyle,
  type PageFields,
  type PageSnapshot,
  type PageStyleOptions,
  type ServedPage,
} from './page-style.js';
import { Paginator, type PaginatorOptions } from './paginator.js';

/** Options of `PageNumberPagination`; each may also be set as a field of a subclass. */
export interface PageNumberPaginationOptions
  extends ClientPageSizeOptions,
    PageStyleOptions<NumberedHtmlContext> {
  /** @default 'page' */
  pageQueryParam?: string;
  /** Page values that mean "the last page". @default ['last'] */
  lastPageStrings?: readonly string[];
  /** 404 detail; `{page_number}` and `{message}` are replaced. @default 'Invalid page.' */
  invalidPageMessage?: string;
  /** The host paginator class (DRF's `django_paginator_class`). @default Paginator */
  hostPaginatorClass?: new (
    query: OrderedQuery<unknown>,
    perPage: number,
    options?: PaginatorOptions,
  ) => Paginator<unknown>;
  /**
   * How the total is found: `exact` counts, `estimated` asks the adapter for an estimate,
   * `none` skips it (`count` is `null`). The body says which with `countMode` when not exact.
   * @default 'exact'
   */
  count?: CountMode;
  /**
   * Reuse each query's count (exact or estimated) for this many milliseconds, in a cache of this
   * pagination's own; a reused count makes the body say `countMode` and `countAge`. Ignored when
   * `countCache` is given. @default null (count on every request)
   */
  countCacheTtl?: number | null;
  /**
   * A count cache to use (and share with other paginations over the same database); its own
   * `ttlMs` applies. @default null
   */
  countCache?: CountCache | null;
  /**
   * Milliseconds an exact count may run: one still running then is cancelled on the server
   * (Postgres, MariaDB) and the estimate answered instead, with `countMode: 'estimated'`.
   * @default null (no limit)
   */
  countTimeout?: number | null;
  /** Largest row offset a page may start at; a deeper page is 404. @default null (no cap) */
  maxOffset?: number | null;
}

/** A numbered page on DRF's layer: the engine's page, with its response and controls. */
export interface PageNumberPage<Row>
  extends Omit<NumberedPage<Row>, 'body'>,
    PageSnapshot<Row, NumberedHtmlContext>,
    ServedPage {
  body<T>(data: readonly T[]): PageNumberPaginated<T>;
  response<T>(data: readonly T[]): ApiResponse<PageNumberPaginated<T>>;
}

// `paginate`'s page typed by the query's rows: a declaration only (merged into the class), so the
// page is made by `PageStyle.paginate` with no override in between.
export interface PageNumberPagination {
  /** Stateless: the page for this request, or `null` when it is not paginated. */
  paginate<Row>(
    query: OrderedQuery<Row>,
    request: ApiRequest,
    view?: PaginationView,
  ): Promise<PageNumberPage<Row> | null>;
}

/**
 * Numbered pages: `?page=4`, DRF's `PageNumberPagination`.
 * Body: `{ count, next, previous, results }`.
 *
 * @example
 * const pagination = new PageNumberPagination({ pageSize: 20, pageSizeQueryParam: 'page_size', maxPageSize: 100 });
 * const page = await pagination.paginate(query, request);
 * return page && page.response(page.rows.map(serialize));
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only narrows `paginate`'s type
export class PageNumberPagination extends ClientSizedStyle<PageNumberPage<unknown>, NumberedHtmlContext> {
  pageQueryParam = 'page';
  pageQueryDescription = 'A page number within the paginated result set.';
  lastPageStrings: readonly string[] = ['last'];
  override template: HtmlTemplate<NumberedHtmlContext> | null = numbersTemplate;
  invalidPageMessage = 'Invalid page.';
  hostPaginatorClass: NonNullable<PageNumberPaginationOptions['hostPaginatorClass']> = Paginator;
  count: CountMode = 'exact';
  countCacheTtl: number | null = null;
  countCache: CountCache | null = null;
  countTimeout: number | null = null;
  maxOffset: number | null = null;
  /** The cache `countCacheTtl` makes, on first use (the instance is frozen by then). */
  #ownCountCache: CountCache | null = null;

  constructor(options: PageNumberPaginationOptions = {}) {
    super();
    assignOptions(this, options);
    if (new.target === PageNumberPagination) this.seal();
    if (new.target === PageNumberPagination) this.#countCache();
  }

  /** `countCache`, else the one `countCacheTtl` asks for (a bad TTL is refused here). */
  #countCache(): CountCache | null {
    if (this.countCache !== null || this.countCacheTtl === null || this.count === 'none')
      return this.countCache;
    this.#ownCountCache ??= new CountCache({ ttlMs: this.countCacheTtl });
    return this.#ownCountCache;
  }

  protected override enginePage<Row>(
    query: OrderedQuery<Row>,
    url: string,
    pageSize: number,
    request: ApiRequest,
  ): Promise<NumberedPage<Row>> {
    // The request's URL as parsed when it reads as `url`: the engine does not parse it again.
    return pageNumberPage(query, request.url.href === url ? request.url : url, {
      pageSize,
      pageQueryParam: this.pageQueryParam,
      lastPageStrings: this.lastPageStrings,
      count: this.count,
      countCache: this.#countCache(),
      countTimeout: this.countTimeout,
      maxOffset: this.maxOffset,
      invalidPageMessage: this.invalidPageMessage,
      onWarning: this.engineWarnings(),
      paginatorClass: this.hostPaginatorClass,
    });
  }

  override getPaginatedResponseSchema(schema: JsonSchema, options: SchemaOptions = {}): JsonSchema {
    const version = options.openapi ?? '3.0';
    // A timeout makes an exact count say `countMode` when the estimate answered.
    const cached =
      this.count !== 'none' &&
      (this.countCache !== null || this.countCacheTtl !== null || this.countTimeout !== null);
    const countMode = cached
      ? {
          countMode: { type: 'string', enum: ['exact', 'estimated'], example: this.count },
          countAge: { type: 'integer', minimum: 0, example: 12 },
        }
      : this.count === 'exact'
        ? {}
        : { countMode: { type: 'string', enum: ['estimated', 'none'], example: this.count } };
    return {
      type: 'object',
      required: ['count', 'results'],
      properties: {
        count:
          this.count !== 'none'
            ? { type: 'integer', example: 123 }
            : version === '3.1'
              ? { type: ['integer', 'null'], example: 123 }
              : { type: 'integer', nullable: true, example: 123 },
        ...countMode,
        next: nullableUri(`http://api.example.org/accounts/?${this.pageQueryParam}=4`, version),
        previous: nullableUri(`http://api.example.org/accounts/?${this.pageQueryParam}=2`, version),
        results: schema,
      },
    };
  }

  override getSchemaOperationParameters(_view?: unknown): OpenApiParameter[] {
    const parameters = [integerQueryParameter(this.pageQueryParam, this.pageQueryDescription)];
    if (this.pageSizeQueryParam !== null) {
      parameters.push(integerQueryParameter(this.pageSizeQueryParam, this.pageSizeQueryDescription));
    }
    return parameters;
  }

  protected override pageHtmlContext(
    page: PageFields<PageNumberPage<unknown>>,
    previousUrl: string | null,
    nextUrl: string | null,
  ): NumberedHtmlContext {
    const final = page.numPages ?? (page.hasNext ? page.number + 1 : page.number);
    const link = new LinkTemplate(page.url);
    const pageUrl = (n: number) => link.with(this.pageQueryParam, n === 1 ? null : n);
    return {
      previousUrl,
      nextUrl,
      pageLinks: getPageLinks(page.number, Math.max(final, page.number), pageUrl),
    };
  }
}
