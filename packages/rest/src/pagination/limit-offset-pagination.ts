import {
  type LimitOffsetPaginated,
  LinkTemplate,
  limitOffsetPage,
  type OffsetPage,
  type OrderedQuery,
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
  type PageFields,
  type PageSnapshot,
  PageStyle,
  type PageStyleOptions,
  type ServedPage,
} from './page-style.js';

/** Options of `LimitOffsetPagination`; each may also be set as a field of a subclass. */
export interface LimitOffsetPaginationOptions extends PageStyleOptions<NumberedHtmlContext> {
  /** Limit when the client sends none. @default settings.pageSize */
  defaultLimit?: number | null;
  /** @default 'limit' */
  limitQueryParam?: string;
  /** @default 'offset' */
  offsetQueryParam?: string;
  /** Upper bound of a client-chosen limit. @default null */
  maxLimit?: number | null;
  /**
   * Largest offset a client may ask for; beyond it the answer is 404. Deep OFFSETs cost the
   * database a scan of every skipped row, so public APIs often cap them. @default null (no cap)
   */
  maxOffset?: number | null;
  /**
   * Milliseconds an exact count may run: one still running then is cancelled on the server
   * (Postgres, MariaDB) and the estimate answered instead, with `countMode: 'estimated'` in the body.
   * @default null (no limit)
   */
  countTimeout?: number | null;
}

/** A limit/offset window on DRF's layer: the engine's page, with its response and controls. */
export interface LimitOffsetPage<Row>
  extends Omit<OffsetPage<Row>, 'body'>,
    PageSnapshot<Row, NumberedHtmlContext>,
    ServedPage {
  body<T>(data: readonly T[]): LimitOffsetPaginated<T>;
  response<T>(data: readonly T[]): ApiResponse<LimitOffsetPaginated<T>>;
}

/** Ceiling division with true ceiling semantics for negative numerators, as DRF's `_divide_with_ceil`. */
function divideWithCeil(a: number, b: number): number {
  return Math.ceil(a / b);
}

// `paginate`'s page typed by the query's rows: a declaration only (merged into the class), so the
// page is made by `PageStyle.paginate` with no override in between.
export interface LimitOffsetPagination {
  /** Stateless: the page for this request, or `null` when it is not paginated. */
  paginate<Row>(
    query: OrderedQuery<Row>,
    request: ApiRequest,
    view?: PaginationView,
  ): Promise<LimitOffsetPage<Row> | null>;
}

/**
 * `?limit=20&offset=40`, DRF's `LimitOffsetPagination`. Offsets past the end answer `[]` with a
 * previous link; without any limit the request is not paginated (and nothing is counted).
 * Body: `{ count, next, previous, results }`.
 *
 * @example
 * const pagination = new LimitOffsetPagination({ defaultLimit: 20, maxLimit: 100 });
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only narrows `paginate`'s type
export class LimitOffsetPagination extends PageStyle<LimitOffsetPage<unknown>, NumberedHtmlContext> {
  defaultLimit?: number | null;
  limitQueryParam = 'limit';
  limitQueryDescription = 'Number of results to return per page.';
  offsetQueryParam = 'offset';
  offsetQueryDescription = 'The initial index from which to return the results.';
  maxLimit: number | null = null;
  maxOffset: number | null = null;
  countTimeout: number | null = null;
  override template: HtmlTemplate<NumberedHtmlContext> | null = numbersTemplate;

  constructor(options: LimitOffsetPaginationOptions = {}) {
    super();
    assignOptions(this, options);
    if (new.target === LimitOffsetPagination) this.seal();
  }

  /** The client's limit (clamped to `maxLimit`) or the default (`getPageSize` under DRF's name). */
  getLimit(request: ApiRequest): number | null {
    return this.pageSizeFor(request, {
      size: this.defaultLimit,
      param: this.limitQueryParam,
      max: this.maxLimit,
    });
  }

  /** `getLimit`: DRF's name for the page size of this style (a subclass may override either). */
  override getPageSize(request: ApiRequest): number | null {
    return this.getLimit(request);
  }

  protected override async enginePage<Row>(
    query: OrderedQuery<Row>,
    url: string,
    limit: number,
    request: ApiRequest,
  ): Promise<OffsetPage<Row>> {
    // The request's URL as parsed when it reads as `url`: the engine does not parse it again.
    const page = await limitOffsetPage(query, request.url.href === url ? request.url : url, {
      defaultLimit: limit,
      limitQueryParam: this.limitQueryParam,
      offsetQueryParam: this.offsetQueryParam,
      // `limit` is this style's own choice (getLimit, clamped to maxLimit when set): the engine
      // keeps to it, and does not warn of a missing maxLimit, which is DRF's default here.
      maxLimit: this.maxLimit ?? limit,
      maxOffset: this.maxOffset,
      countTimeout: this.countTimeout,
      onWarning: this.engineWarnings(),
    });
    return page!;
  }

  protected override hasControls(page: PageFields<LimitOffsetPage<unknown>>): boolean {
    return page.count > page.limit;
  }

  override getPaginatedResponseSchema(schema: JsonSchema, options: SchemaOptions = {}): JsonSchema {
    const version = options.openapi ?? '3.0';
    const o = this.offsetQueryParam;
    const l = this.limitQueryParam;
    return {
      type: 'object',
      required: ['count', 'results'],
      properties: {
        count: { type: 'integer', example: 123 },
        ...(this.countTimeout === null
          ? {}
          : { countMode: { type: 'string', enum: ['estimated'], example: 'estimated' } }),
        next: nullableUri(`http://api.example.org/accounts/?${o}=400&${l}=100`, version),
        previous: nullableUri(`http://api.example.org/accounts/?${o}=200&${l}=100`, version),
        results: schema,
      },
    };
  }

  override getSchemaOperationParameters(_view?: unknown): OpenApiParameter[] {
    return [
      integerQueryParameter(this.limitQueryParam, this.limitQueryDescription),
      integerQueryParameter(this.offsetQueryParam, this.offsetQueryDescription),
    ];
  }

  /**
   * Numbered links over offsets. As in DRF, the page links keep the client's raw `limit` text
   * while next/previous carry the effective limit.
   */
  protected override pageHtmlContext(
    { offset, limit, count, url }: PageFields<LimitOffsetPage<unknown>>,
    previousUrl: string | null,
    nextUrl: string | null,
  ): NumberedHtmlContext {
    const base = { previousUrl, nextUrl };
    if (limit <= 0) return { ...base, pageLinks: [] };
    let current = divideWithCeil(offset, limit) + 1;
    const final = Math.max(1, divideWithCeil(count - offset, limit) + divideWithCeil(offset, limit));
    if (current > final) current = final;
    // Numbered links keep the client's raw limit text, as DRF's do.
    const link = new LinkTemplate(url);
    const pageUrl = (n: number) =>
      link.with(this.offsetQueryParam, n === 1 ? null : offset + (n - current) * limit);
    return { ...base, pageLinks: getPageLinks(current, final, pageUrl) };
  }
}
