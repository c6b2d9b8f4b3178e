import { NotFound } from '../errors.js';
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
import type { LinkTemplate } from '../request/query-string.js';
import type { PaginationView } from './base-pagination.js';
import { CountCache } from './count-cache.js';
import { getPageLinks } from './displayed-page-numbers.js';
import { offsetTooLarge } from './max-offset.js';
import type { OrderedQuery } from './ordered-query.js';
import {
  type ClientPageSizeOptions,
  type PageFields,
  type PageSizeOptions,
  type PageSnapshot,
  PageStyle,
  type PageStyleOptions,
} from './page-style.js';
import type { PageNumberPaginated } from './paginated.js';
import { type CountMode, InvalidPage, Paginator, type PaginatorOptions } from './paginator.js';

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
  /** Largest row offset a page may start at; a deeper page is 404. @default null (no cap) */
  maxOffset?: number | null;
}

/** The page one request produced: a frozen value (see `PageSnapshot`). */
export interface PageNumberPage<Row> extends PageSnapshot<Row, NumberedHtmlContext> {
  readonly number: number;
  /** Total number of pages; `null` when the count was skipped. */
  readonly numPages: number | null;
  readonly count: number | null;
  readonly countMode: CountMode;
  /**
   * Milliseconds since the count was taken when a count cache answered it (`0`: by a request
   * running alongside); `null` when it was taken for this request.
   */
  readonly countAgeMs: number | null;
  readonly hasNext: boolean;
  readonly hasPrevious: boolean;
  readonly url: string;
  /** `url` parsed once, for the links. */
  readonly link: LinkTemplate;
  response<T>(data: T[]): ApiResponse<PageNumberPaginated<T>>;
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
 * Numbered pages: `?page=4`, DRF's `PageNumberPagination`.
 * Body: `{ count, next, previous, results }`.
 *
 * @example
 * const pagination = new PageNumberPagination({ pageSize: 20, pageSizeQueryParam: 'page_size', maxPageSize: 100 });
 * const page = await pagination.paginate(query, request);
 * return page && page.response(page.rows.map(serialize));
 */
export class PageNumberPagination extends PageStyle<PageNumberPage<unknown>, NumberedHtmlContext> {
  pageSize?: number | null;
  pageQueryParam = 'page';
  pageQueryDescription = 'A page number within the paginated result set.';
  pageSizeQueryParam: string | null = null;
  pageSizeQueryDescription = 'Number of results to return per page.';
  maxPageSize: number | null = null;
  lastPageStrings: readonly string[] = ['last'];
  override template: HtmlTemplate<NumberedHtmlContext> | null = numbersTemplate;
  invalidPageMessage = 'Invalid page.';
  hostPaginatorClass: NonNullable<PageNumberPaginationOptions['hostPaginatorClass']> = Paginator;
  count: CountMode = 'exact';
  countCacheTtl: number | null = null;
  countCache: CountCache | null = null;
  maxOffset: number | null = null;
  /** The cache `countCacheTtl` makes, on first use (the instance is frozen by then). */
  #ownCountCache: CountCache | null = null;

  constructor(options: PageNumberPaginationOptions = {}) {
    super();
    this.init(options, new.target === PageNumberPagination);
    if (new.target === PageNumberPagination) this.#countCache();
  }

  /** `countCache`, else the one `countCacheTtl` asks for (a bad TTL is refused here). */
  #countCache(): CountCache | null {
    if (this.countCache !== null || this.countCacheTtl === null || this.count === 'none')
      return this.countCache;
    this.#ownCountCache ??= new CountCache({ ttlMs: this.countCacheTtl });
    return this.#ownCountCache;
  }

  protected override pageSizeOptions(): PageSizeOptions {
    return { size: this.pageSize, param: this.pageSizeQueryParam, max: this.maxPageSize };
  }

  /** Stateless: the page for this request, or `null` when it is not paginated. */
  override async paginate<Row>(
    query: OrderedQuery<Row>,
    request: ApiRequest,
    _view?: PaginationView,
  ): Promise<PageNumberPage<Row> | null> {
    this.seal();
    const pageSize = this.getPageSize(request);
    if (!pageSize) return null;
    const paginator = new this.hostPaginatorClass(query, pageSize, {
      count: this.count,
      onWarning: this.settings.onWarning,
      countCache: this.#countCache(),
    }) as Paginator<Row>;
    // Nothing waits for an estimate before fetching the page: ask for both at once (a second
    // connection, not a second round trip). The promise is cached; its errors surface when awaited.
    if (this.count === 'estimated') paginator.countResult().catch(() => {});
    let raw: string | number = request.queryParams.get(this.pageQueryParam) || 1;
    try {
      if (typeof raw === 'string' && this.lastPageStrings.includes(raw)) {
        const last = await paginator.numPages();
        raw = Number.isNaN(last) ? raw : last;
      }
      const number = await paginator.validateNumber(raw);
      const offset = (number - 1) * pageSize;
      if (this.maxOffset !== null && offset > this.maxOffset) throw offsetTooLarge(offset, this.maxOffset);
      const page = await paginator.page(number);
      const url = request.buildAbsoluteUri();
      const counted = await paginator.countResult();
      return this.makePage({
        rows: page.rows,
        number: page.number,
        numPages: await this.#numPages(paginator, page),
        count: this.count === 'none' ? null : await paginator.count(),
        // What the count really was: an `estimated` request answered exactly says `exact`.
        countMode: this.count === 'none' ? 'none' : counted.exact ? 'exact' : 'estimated',
        countAgeMs: counted.cached ? counted.ageMs : null,
        hasNext: page.hasNext,
        hasPrevious: page.hasPrevious,
        url,
        link: request.linkTemplate(url),
      }) as PageNumberPage<Row>;
    } catch (error) {
      if (error instanceof InvalidPage) {
        throw new NotFound(
          formatMessage(this.invalidPageMessage, { page_number: String(raw), message: error.message }),
        );
      }
      throw error;
    }
  }

  /** Exact page total; with an estimate, one that agrees with what the look-ahead saw. */
  async #numPages(
    paginator: Paginator<unknown>,
    page: { number: number; hasNext: boolean },
  ): Promise<number | null> {
    if (this.count === 'none') return null;
    const numPages = await paginator.numPages();
    if (this.count === 'exact') return numPages;
    return page.hasNext ? Math.max(numPages, page.number + 1) : page.number;
  }

  protected override hasControls(page: PageFields<PageNumberPage<unknown>>): boolean {
    return page.hasNext || page.hasPrevious;
  }

  protected override nextLink(page: PageFields<PageNumberPage<unknown>>): string | null {
    return page.hasNext ? page.link.with(this.pageQueryParam, page.number + 1) : null;
  }

  protected override previousLink(page: PageFields<PageNumberPage<unknown>>): string | null {
    if (!page.hasPrevious) return null;
    return page.link.with(this.pageQueryParam, page.number - 1 === 1 ? null : page.number - 1);
  }

  protected override pageBody(
    page: PageFields<PageNumberPage<unknown>>,
    data: unknown[],
    next: string | null,
    previous: string | null,
  ): PageNumberPaginated<unknown> {
    if (page.countAgeMs !== null) {
      const countAge = Math.floor(page.countAgeMs / 1000);
      return { count: page.count, countMode: page.countMode, countAge, next, previous, results: data };
    }
    return page.countMode === 'exact'
      ? { count: page.count, next, previous, results: data }
      : { count: page.count, countMode: page.countMode, next, previous, results: data };
  }

  override getPaginatedResponseSchema(schema: JsonSchema, options: SchemaOptions = {}): JsonSchema {
    const version = options.openapi ?? '3.0';
    const cached = this.count !== 'none' && (this.countCache !== null || this.countCacheTtl !== null);
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
    const pageUrl = (n: number) => page.link.with(this.pageQueryParam, n === 1 ? null : n);
    return {
      previousUrl,
      nextUrl,
      pageLinks: getPageLinks(page.number, Math.max(final, page.number), pageUrl),
    };
  }
}
