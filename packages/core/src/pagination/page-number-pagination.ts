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
import { LinkTemplate } from '../request/query-string.js';
import { ApiSettings } from '../settings.js';
import { assignOptions, type PaginationView, paginatedResponse } from './base-pagination.js';
import { getPageLinks } from './displayed-page-numbers.js';
import { offsetTooLarge } from './max-offset.js';
import type { OrderedQuery } from './ordered-query.js';
import { requestedPageSize } from './page-size.js';
import { PageStyle } from './page-style.js';
import { type CountMode, InvalidPage, Paginator, type PaginatorOptions } from './paginator.js';

/** Options of `PageNumberPagination`; each may also be set as a field of a subclass. */
export interface PageNumberPaginationOptions {
  /** Rows per page. @default settings.pageSize */
  pageSize?: number | null;
  /** @default 'page' */
  pageQueryParam?: string;
  /** Lets the client choose the page size with this parameter. @default null */
  pageSizeQueryParam?: string | null;
  /** Upper bound of a client-chosen page size. @default null */
  maxPageSize?: number | null;
  /** Page values that mean "the last page". @default ['last'] */
  lastPageStrings?: readonly string[];
  /** Renders the html controls; `null` disables them. @default numbersTemplate */
  template?: HtmlTemplate<NumberedHtmlContext> | null;
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
  /** Largest row offset a page may start at; a deeper page is 404. @default null (no cap) */
  maxOffset?: number | null;
  /** @default ApiSettings.defaults */
  settings?: ApiSettings;
}

/** The page one request produced. */
export interface PageNumberPage<Row> {
  readonly rows: Row[];
  readonly number: number;
  /** Total number of pages; `null` when the count was skipped. */
  readonly numPages: number | null;
  readonly count: number | null;
  readonly countMode: CountMode;
  readonly hasNext: boolean;
  readonly hasPrevious: boolean;
  readonly url: string;
  /** `url` parsed once, for the links. */
  readonly link: LinkTemplate;
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
 * const rows = await pagination.paginateQueryset(query, request);
 * return pagination.getPaginatedResponse(rows.map(serialize));
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
  maxOffset: number | null = null;
  settings: ApiSettings = ApiSettings.defaults;

  constructor(options: PageNumberPaginationOptions = {}) {
    super();
    assignOptions(this, options);
  }

  /** The page size for this request: the client's (clamped) or the default. */
  getPageSize(request: ApiRequest): number | null {
    const fallback = this.pageSize === undefined ? this.settings.pageSize : this.pageSize;
    return requestedPageSize(request, this.pageSizeQueryParam, this.maxPageSize, fallback);
  }

  /** Stateless: the page for this request, or `null` when it is not paginated. */
  override async paginate<Row>(
    query: OrderedQuery<Row>,
    request: ApiRequest,
    _view?: PaginationView,
  ): Promise<PageNumberPage<Row> | null> {
    const pageSize = this.getPageSize(request);
    if (!pageSize) return null;
    const paginator = new this.hostPaginatorClass(query, pageSize, {
      count: this.count,
      onWarning: this.settings.onWarning,
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
      return {
        rows: page.rows,
        number: page.number,
        numPages: await this.#numPages(paginator, page),
        count: this.count === 'none' ? null : await paginator.count(),
        countMode: await this.#countModeUsed(paginator),
        hasNext: page.hasNext,
        hasPrevious: page.hasPrevious,
        url,
        link: new LinkTemplate(url),
      };
    } catch (error) {
      if (error instanceof InvalidPage) {
        throw new NotFound(
          formatMessage(this.invalidPageMessage, { page_number: String(raw), message: error.message }),
        );
      }
      throw error;
    }
  }

  /** What the count really was: an `estimated` request answered exactly says `exact`. */
  async #countModeUsed(paginator: Paginator<unknown>): Promise<CountMode> {
    if (this.count !== 'estimated') return this.count;
    return (await paginator.countResult()).exact ? 'exact' : 'estimated';
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

  protected override hasControls(page: PageNumberPage<unknown>): boolean {
    return page.hasNext || page.hasPrevious;
  }

  override getNextLink(): string | null {
    const page = this.current();
    return page.hasNext ? page.link.with(this.pageQueryParam, page.number + 1) : null;
  }

  override getPreviousLink(): string | null {
    const page = this.current();
    if (!page.hasPrevious) return null;
    return page.link.with(this.pageQueryParam, page.number - 1 === 1 ? null : page.number - 1);
  }

  getPaginatedResponse(data: unknown[]): ApiResponse {
    const page = this.current();
    const next = this.getNextLink();
    const previous = this.getPreviousLink();
    const body =
      page.countMode === 'exact'
        ? { count: page.count, next, previous, results: data }
        : { count: page.count, countMode: page.countMode, next, previous, results: data };
    return paginatedResponse(body, next, previous);
  }

  override getPaginatedResponseSchema(schema: JsonSchema, options: SchemaOptions = {}): JsonSchema {
    const version = options.openapi ?? '3.0';
    const countMode =
      this.count === 'exact'
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

  override getHtmlContext(): NumberedHtmlContext {
    const page = this.current();
    const final = page.numPages ?? (page.hasNext ? page.number + 1 : page.number);
    const pageUrl = (n: number) => page.link.with(this.pageQueryParam, n === 1 ? null : n);
    return {
      previousUrl: this.getPreviousLink(),
      nextUrl: this.getNextLink(),
      pageLinks: getPageLinks(page.number, Math.max(final, page.number), pageUrl),
    };
  }
}
