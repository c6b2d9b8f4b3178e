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
import { parsePythonBigInt, positiveIntOr } from '../request/positive-int.js';
import { type LinkTemplate, removeQueryParam, replaceQueryParam } from '../request/query-string.js';
import type { PaginationView } from './base-pagination.js';
import { getPageLinks } from './displayed-page-numbers.js';
import { offsetTooLarge } from './max-offset.js';
import type { OrderedQuery } from './ordered-query.js';
import {
  type PageFields,
  type PageSizeOptions,
  type PageSnapshot,
  PageStyle,
  type PageStyleOptions,
} from './page-style.js';
import type { LimitOffsetPaginated } from './paginated.js';
import { warnIfUnordered } from './unordered-warning.js';

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
}

/** The window one request produced: a frozen value (see `PageSnapshot`). */
export interface LimitOffsetPage<Row> extends PageSnapshot<Row, NumberedHtmlContext> {
  readonly count: number;
  readonly limit: number;
  readonly offset: number;
  readonly url: string;
  /** `limit` as the client sent it when that is beyond `Number.MAX_SAFE_INTEGER` (links echo it exactly). */
  readonly exactLimit: bigint;
  /** `offset`, exactly as well. */
  readonly exactOffset: bigint;
  /** `url` parsed once, for the links. */
  readonly link: LinkTemplate;
  response<T>(data: T[]): ApiResponse<LimitOffsetPaginated<T>>;
}

/** Ceiling division with true ceiling semantics for negative numerators, as DRF's `_divide_with_ceil`. */
function divideWithCeil(a: number, b: number): number {
  return Math.ceil(a / b);
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
 * `?limit=20&offset=40`, DRF's `LimitOffsetPagination`. Offsets past the end answer `[]` with a
 * previous link; without any limit the request is not paginated (and nothing is counted).
 * Body: `{ count, next, previous, results }`.
 *
 * @example
 * const pagination = new LimitOffsetPagination({ defaultLimit: 20, maxLimit: 100 });
 */
export class LimitOffsetPagination extends PageStyle<LimitOffsetPage<unknown>, NumberedHtmlContext> {
  defaultLimit?: number | null;
  limitQueryParam = 'limit';
  limitQueryDescription = 'Number of results to return per page.';
  offsetQueryParam = 'offset';
  offsetQueryDescription = 'The initial index from which to return the results.';
  maxLimit: number | null = null;
  maxOffset: number | null = null;
  override template: HtmlTemplate<NumberedHtmlContext> | null = numbersTemplate;

  constructor(options: LimitOffsetPaginationOptions = {}) {
    super();
    this.init(options, new.target === LimitOffsetPagination);
  }

  protected override pageSizeOptions(): PageSizeOptions {
    return { size: this.defaultLimit, param: this.limitQueryParam, max: this.maxLimit };
  }

  /** The client's limit (clamped to `maxLimit`) or the default (`getPageSize` under DRF's name). */
  getLimit(request: ApiRequest): number | null {
    return this.getPageSize(request);
  }

  /** The client's offset; negative or junk offsets are 0. */
  getOffset(request: ApiRequest): number {
    return positiveIntOr(request.queryParams.get(this.offsetQueryParam), 0);
  }

  /** Stateless: the window for this request, or `null` when it is not paginated. */
  override async paginate<Row>(
    query: OrderedQuery<Row>,
    request: ApiRequest,
    _view?: PaginationView,
  ): Promise<LimitOffsetPage<Row> | null> {
    this.seal();
    const limit = this.getLimit(request);
    if (limit === null) return null;
    warnIfUnordered(query, this.settings.onWarning);
    const offset = this.getOffset(request);
    if (this.maxOffset !== null && offset > this.maxOffset) throw offsetTooLarge(offset, this.maxOffset);
    const { value: count } = await query.count();
    const rows =
      count === 0 || offset >= count || limit === 0
        ? []
        : (await query.fetch({ order: null, after: null, offset, limit })).map((r) => r.row);
    const url = request.buildAbsoluteUri();
    const exactLimit = exactInteger(request.queryParams.get(this.limitQueryParam), limit);
    const exactOffset = exactInteger(request.queryParams.get(this.offsetQueryParam), offset);
    return this.makePage({
      rows,
      count,
      limit,
      offset,
      url,
      exactLimit,
      exactOffset,
      link: request.linkTemplate(url),
    }) as LimitOffsetPage<Row>;
  }

  protected override hasControls(page: PageFields<LimitOffsetPage<unknown>>): boolean {
    return page.count > page.limit;
  }

  protected override nextLink({
    exactOffset: offset,
    exactLimit: limit,
    count,
    url,
  }: PageFields<LimitOffsetPage<unknown>>): string | null {
    if (offset + limit >= BigInt(count)) return null;
    return replaceQueryParam(
      replaceQueryParam(url, this.limitQueryParam, String(limit)),
      this.offsetQueryParam,
      String(offset + limit),
    );
  }

  protected override previousLink({
    exactOffset: offset,
    exactLimit: limit,
    url,
  }: PageFields<LimitOffsetPage<unknown>>): string | null {
    if (offset <= 0n) return null;
    const withLimit = replaceQueryParam(url, this.limitQueryParam, String(limit));
    return offset - limit <= 0n
      ? removeQueryParam(withLimit, this.offsetQueryParam)
      : replaceQueryParam(withLimit, this.offsetQueryParam, String(offset - limit));
  }

  protected override pageBody(
    page: PageFields<LimitOffsetPage<unknown>>,
    data: unknown[],
    next: string | null,
    previous: string | null,
  ): LimitOffsetPaginated<unknown> {
    return { count: page.count, next, previous, results: data };
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
    { offset, limit, count, link }: PageFields<LimitOffsetPage<unknown>>,
    previousUrl: string | null,
    nextUrl: string | null,
  ): NumberedHtmlContext {
    const base = { previousUrl, nextUrl };
    if (limit <= 0) return { ...base, pageLinks: [] };
    let current = divideWithCeil(offset, limit) + 1;
    const final = Math.max(1, divideWithCeil(count - offset, limit) + divideWithCeil(offset, limit));
    if (current > final) current = final;
    // Numbered links keep the client's raw limit text, as DRF's do.
    const pageUrl = (n: number) =>
      link.with(this.offsetQueryParam, n === 1 ? null : offset + (n - current) * limit);
    return { ...base, pageLinks: getPageLinks(current, final, pageUrl) };
  }
}
