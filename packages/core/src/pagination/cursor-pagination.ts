import {
  type HtmlTemplate,
  type PreviousNextHtmlContext,
  previousNextTemplate,
} from '../html/pagination-html.js';
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
import type { OrderingSource, PaginationView } from './base-pagination.js';
import { type Cursor, DEFAULT_MAX_CURSOR_LENGTH, encodeCursor, orderingFingerprint } from './cursor-codec.js';
import type { CursorSecret } from './cursor-signature.js';
import {
  DEFAULT_CURSOR_ORDERING,
  extendWindow,
  fetchCursorWindow,
  keyOrder,
  nextCursorOf,
  previousCursorOf,
  readCursor,
} from './cursor-window.js';
import type { OrderedQuery, PositionValue } from './ordered-query.js';
import {
  invertOrdering,
  type KeyTerm,
  type OrderingInput,
  type OrderTerm,
  parseOrdering,
} from './ordering.js';
import {
  type ClientPageSizeOptions,
  type PageFields,
  type PageSizeOptions,
  type PageSnapshot,
  PageStyle,
  type PageStyleOptions,
} from './page-style.js';
import type { CursorPaginated } from './paginated.js';

/** Options of `CursorPagination`; each may also be set as a field of a subclass. */
export interface CursorPaginationOptions
  extends ClientPageSizeOptions,
    PageStyleOptions<PreviousNextHtmlContext> {
  /** @default 'cursor' */
  cursorQueryParam?: string;
  /** Field names with an optional `-`, or terms with `nulls`. @default '-created' */
  ordering?: OrderingInput;
  /** Largest residual offset a cursor may carry (only used without a unique key). @default 1000 */
  offsetCutoff?: number | null;
  /** 404 detail for a cursor that cannot be used. @default 'Invalid cursor' */
  invalidCursorMessage?: string;
  /**
   * Signs cursors with HMAC-SHA256; tampered or unsigned cursors are then 404. A list rotates keys:
   * the first signs, every one verifies. @default null
   */
  cursorSecret?: CursorSecret | null;
  /**
   * Longest cursor accepted, in characters: longer ones are `404 Invalid cursor` before decoding.
   * A page whose next or previous cursor would be longer (a long string in the position) throws
   * `ConfigurationError` (a 500 naming the field) instead of linking to a page the server refuses.
   * @default DEFAULT_MAX_CURSOR_LENGTH (4096)
   */
  maxCursorLength?: number;
}

/** The page one request produced, with what its links are made from: a frozen value (see `PageSnapshot`). */
export interface CursorPage<Row> extends PageSnapshot<Row, PreviousNextHtmlContext> {
  readonly order: readonly KeyTerm[];
  readonly pageSize: number;
  readonly url: string;
  /** `url` parsed once, for the links. */
  readonly link: LinkTemplate;
  readonly cursor: Cursor | null;
  readonly positions: ReadonlyArray<readonly PositionValue[]>;
  readonly hasNext: boolean;
  readonly hasPrevious: boolean;
  readonly nextPosition: readonly PositionValue[] | null;
  readonly previousPosition: readonly PositionValue[] | null;
  response<T>(data: T[]): ApiResponse<CursorPaginated<T>>;
}

/** An ordering keyed for one query's unique key, with its fingerprint: frozen, shared by pages. */
interface KeyedOrdering {
  readonly terms: readonly OrderTerm[];
  readonly uniqueKey: string | null;
  readonly order: readonly KeyTerm[];
  /** `order` inverted, for `previous` pages. */
  readonly reversed: readonly KeyTerm[];
  readonly fingerprint: string;
}

function sameTerms(a: readonly OrderTerm[], b: readonly OrderTerm[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.field !== y.field || x.direction !== y.direction || x.nulls !== y.nulls) return false;
  }
  return true;
}

function isOrderingSource(backend: unknown): backend is OrderingSource {
  return typeof (backend as Partial<OrderingSource> | null)?.getOrdering === 'function';
}

/**
 * Keyset pages behind opaque cursors, DRF's `CursorPagination` done without its artifacts.
 *
 * Positions hold the value of every ordering field plus the adapter's unique key (appended when
 * the ordering does not already contain it), so following `next` from the first page visits
 * every row exactly once, and `previous` of `next` is the same page. Without a unique key, DRF's
 * position + offset scheme takes over. Body: `{ next, previous, results }`.
 *
 * @example
 * const pagination = new CursorPagination({ pageSize: 50, ordering: ['-published_at', '-id'] });
 */
export class CursorPagination extends PageStyle<CursorPage<unknown>, PreviousNextHtmlContext> {
  pageSize?: number | null;
  cursorQueryParam = 'cursor';
  cursorQueryDescription = 'The pagination cursor value.';
  ordering: OrderingInput = DEFAULT_CURSOR_ORDERING;
  pageSizeQueryParam: string | null = null;
  pageSizeQueryDescription = 'Number of results to return per page.';
  maxPageSize: number | null = null;
  offsetCutoff: number | null = 1000;
  override template: HtmlTemplate<PreviousNextHtmlContext> | null = previousNextTemplate;
  invalidCursorMessage = 'Invalid cursor';
  cursorSecret: CursorSecret | null = null;
  maxCursorLength = DEFAULT_MAX_CURSOR_LENGTH;
  /**
   * The last ordering a page was keyed with. Requests asking for the same terms on the same
   * unique key reuse it instead of settling the terms and hashing them again; it holds nothing
   * of a request, so concurrent requests may share it (or replace it) freely.
   */
  #keyed: KeyedOrdering | null = null;

  constructor(options: CursorPaginationOptions = {}) {
    super();
    this.init(options, new.target === CursorPagination);
  }

  protected override pageSizeOptions(): PageSizeOptions {
    return { size: this.pageSize, param: this.pageSizeQueryParam, max: this.maxPageSize };
  }

  /**
   * The ordering terms: the first filter backend with `getOrdering` (an ordering filter) wins when
   * it answers something, otherwise `ordering`.
   */
  getOrdering(request: ApiRequest, query: OrderedQuery<unknown>, view?: PaginationView): OrderTerm[] {
    for (const backend of view?.filterBackends ?? []) {
      const source = typeof backend === 'function' ? new (backend as new () => unknown)() : backend;
      if (!isOrderingSource(source)) continue;
      const chosen = source.getOrdering(request, query, view!);
      if (chosen !== null && chosen.length > 0) return parseOrdering(chosen);
      break;
    }
    return parseOrdering(this.ordering);
  }

  /** Stateless: the page for this request, or `null` when it is not paginated. */
  override async paginate<Row>(
    query: OrderedQuery<Row>,
    request: ApiRequest,
    view?: PaginationView,
  ): Promise<CursorPage<Row> | null> {
    this.seal();
    const pageSize = this.getPageSize(request);
    if (!pageSize) return null;
    const { order, reversed, fingerprint } = this.#keyOrder(this.getOrdering(request, query, view), query);
    const cursor = readCursor(request.queryParams.get(this.cursorQueryParam), order, {
      fingerprint,
      secret: this.cursorSecret,
      offsetCutoff: this.offsetCutoff,
      maxLength: this.maxCursorLength,
      invalidMessage: this.invalidCursorMessage,
    });
    const window = await fetchCursorWindow(
      query,
      order,
      cursor,
      pageSize,
      this.invalidCursorMessage,
      reversed,
    );
    const url = request.buildAbsoluteUri();
    return this.makePage(
      extendWindow(window, {
        rows: window.rows,
        order,
        url,
        link: request.linkTemplate(url),
      }),
    ) as CursorPage<Row>;
  }

  /** `terms` keyed for `query` (see `keyOrder`), frozen, with the fingerprint cursors carry. */
  #keyOrder(terms: readonly OrderTerm[], query: Pick<OrderedQuery<unknown>, 'uniqueKey'>): KeyedOrdering {
    const last = this.#keyed;
    if (last !== null && last.uniqueKey === query.uniqueKey && sameTerms(last.terms, terms)) return last;
    const order = Object.freeze(keyOrder(terms, query).map((term) => Object.freeze(term)));
    const keyed: KeyedOrdering = Object.freeze({
      terms: Object.freeze(
        terms.map(({ field, direction, nulls }) => Object.freeze({ field, direction, nulls })),
      ),
      uniqueKey: query.uniqueKey,
      order,
      reversed: Object.freeze(invertOrdering(order).map((term) => Object.freeze(term))),
      fingerprint: orderingFingerprint(order),
    });
    this.#keyed = keyed;
    return keyed;
  }

  protected override hasControls(page: PageFields<CursorPage<unknown>>): boolean {
    return page.hasNext || page.hasPrevious;
  }

  /**
   * The next page's cursor: normally "after the last row". Only when rows share a position (no
   * unique key) does it need DRF's offset walk.
   */
  nextCursor(page: PageFields<CursorPage<unknown>>): Cursor | null {
    return nextCursorOf(page);
  }

  /** The previous page's cursor: "before the first row", mirrored from `nextCursor`. */
  previousCursor(page: PageFields<CursorPage<unknown>>): Cursor | null {
    return previousCursorOf(page);
  }

  /** The URL of `cursor` on `page`. */
  encodeCursorUrl(page: PageFields<CursorPage<unknown>>, cursor: Cursor): string {
    const keyed = this.#keyed;
    const token = encodeCursor(cursor, {
      order: page.order,
      fingerprint: keyed?.order === page.order ? keyed.fingerprint : undefined,
      secret: this.cursorSecret,
      maxLength: this.maxCursorLength,
    });
    return page.link.with(this.cursorQueryParam, token);
  }

  protected override nextLink(page: PageFields<CursorPage<unknown>>): string | null {
    const cursor = this.nextCursor(page);
    return cursor === null ? null : this.encodeCursorUrl(page, cursor);
  }

  protected override previousLink(page: PageFields<CursorPage<unknown>>): string | null {
    const cursor = this.previousCursor(page);
    return cursor === null ? null : this.encodeCursorUrl(page, cursor);
  }

  protected override pageBody(
    _page: PageFields<CursorPage<unknown>>,
    data: unknown[],
    next: string | null,
    previous: string | null,
  ): CursorPaginated<unknown> {
    return { next, previous, results: data };
  }

  override getPaginatedResponseSchema(schema: JsonSchema, options: SchemaOptions = {}): JsonSchema {
    const version = options.openapi ?? '3.0';
    const c = this.cursorQueryParam;
    return {
      type: 'object',
      required: ['results'],
      properties: {
        next: nullableUri(`http://api.example.org/accounts/?${c}=cD00ODY%3D`, version),
        previous: nullableUri(`http://api.example.org/accounts/?${c}=cj0xJnA9NDg3`, version),
        results: schema,
      },
    };
  }

  override getSchemaOperationParameters(_view?: unknown): OpenApiParameter[] {
    const parameters: OpenApiParameter[] = [
      {
        name: this.cursorQueryParam,
        required: false,
        in: 'query',
        description: this.cursorQueryDescription,
        schema: { type: 'string' },
      },
    ];
    if (this.pageSizeQueryParam !== null) {
      parameters.push(integerQueryParameter(this.pageSizeQueryParam, this.pageSizeQueryDescription));
    }
    return parameters;
  }

  protected override pageHtmlContext(
    _page: PageFields<CursorPage<unknown>>,
    previousUrl: string | null,
    nextUrl: string | null,
  ): PreviousNextHtmlContext {
    return { previousUrl, nextUrl };
  }
}
