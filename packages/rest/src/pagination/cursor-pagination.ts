import {
  type CursorPage,
  type CursorPaginated,
  type CursorSecret,
  cursorPage,
  DEFAULT_MAX_CURSOR_LENGTH,
  type OrderedQuery,
  type OrderingInput,
  type OrderTerm,
  parseOrdering,
  type TypedOrdering,
} from '@pagewise/core';
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
import { assignOptions } from '../settings.js';
import type { OrderingSource, PaginationView } from './base-pagination.js';
import {
  type ClientPageSizeOptions,
  ClientSizedStyle,
  type PageFields,
  type PageSnapshot,
  type PageStyleOptions,
  type ServedPage,
} from './page-style.js';

/** DRF's default ordering, for a query that has none of its own. */
const DEFAULT_ORDERING = '-created';

/** Options of `CursorPagination`; each may also be set as a field of a subclass. */
export interface CursorPaginationOptions<Row = unknown>
  extends ClientPageSizeOptions,
    PageStyleOptions<PreviousNextHtmlContext> {
  /** @default 'cursor' */
  cursorQueryParam?: string;
  /**
   * Field names with an optional `-`, or terms with `nulls`; checked against the row's fields for
   * a `CursorPagination<Row>`. @default the query's own ordering, else '-created'
   */
  ordering?: TypedOrdering<Row> | null;
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

/** A cursor page on DRF's layer: the engine's page, with its response and controls. */
export interface CursorPaginationPage<Row>
  extends Omit<CursorPage<Row>, 'body'>,
    PageSnapshot<Row, PreviousNextHtmlContext>,
    ServedPage {
  body<T>(data: readonly T[]): CursorPaginated<T>;
  response<T>(data: readonly T[]): ApiResponse<CursorPaginated<T>>;
}

function isOrderingSource(backend: unknown): backend is OrderingSource {
  return typeof (backend as Partial<OrderingSource> | null)?.getOrdering === 'function';
}

// `paginate`'s page typed by the query's rows: a declaration only (merged into the class), so the
// page is made by `PageStyle.paginate` with no override in between.
export interface CursorPagination<Row = unknown> {
  /** Stateless: the page for this request, or `null` when it is not paginated. */
  paginate<R = Row>(
    query: OrderedQuery<R>,
    request: ApiRequest,
    view?: PaginationView,
  ): Promise<CursorPaginationPage<R> | null>;
}

/**
 * Keyset pages behind opaque cursors, DRF's `CursorPagination` done without its artifacts: the
 * engine's `cursorPage` under DRF's options, with its response, html controls and OpenAPI hooks.
 *
 * Positions hold the value of every ordering field plus the adapter's unique key (appended when
 * the ordering does not already contain it), so following `next` from the first page visits
 * every row exactly once, and `previous` of `next` is the same page. Without a unique key, DRF's
 * position + offset scheme takes over. Body: `{ next, previous, results }`.
 *
 * @example
 * const pagination = new CursorPagination({ pageSize: 50, ordering: ['-published_at', '-id'] });
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only narrows `paginate`'s type
export class CursorPagination<Row = unknown> extends ClientSizedStyle<
  CursorPaginationPage<unknown>,
  PreviousNextHtmlContext
> {
  cursorQueryParam = 'cursor';
  cursorQueryDescription = 'The pagination cursor value.';
  ordering: TypedOrdering<Row> | null = null;
  offsetCutoff: number | null = 1000;
  override template: HtmlTemplate<PreviousNextHtmlContext> | null = previousNextTemplate;
  invalidCursorMessage = 'Invalid cursor';
  cursorSecret: CursorSecret | null = null;
  maxCursorLength = DEFAULT_MAX_CURSOR_LENGTH;

  // `NoInfer`: the row type is the one given (`CursorPagination<Article>`), never guessed from the ordering.
  constructor(options: CursorPaginationOptions<NoInfer<Row>> = {}) {
    super();
    assignOptions(this, options);
    if (new.target === CursorPagination) this.seal();
  }

  /**
   * The ordering terms: the first filter backend with `getOrdering` (an ordering filter) wins when
   * it answers something, otherwise `ordering`, otherwise the query's own, otherwise `'-created'`.
   */
  getOrdering(request: ApiRequest, query: OrderedQuery<unknown>, view?: PaginationView): OrderTerm[] {
    const chosen = this.#chosenOrdering(request, query, view);
    if (chosen !== null) return parseOrdering(chosen);
    return query.ordering.length > 0 ? [...query.ordering] : parseOrdering(DEFAULT_ORDERING);
  }

  /** The ordering a filter backend or `ordering` chose, unparsed (the engine parses it); `null`: none. */
  #chosenOrdering(
    request: ApiRequest,
    query: OrderedQuery<unknown>,
    view?: PaginationView,
  ): OrderingInput | null {
    for (const backend of view?.filterBackends ?? []) {
      const source = typeof backend === 'function' ? new (backend as new () => unknown)() : backend;
      if (!isOrderingSource(source)) continue;
      const chosen = source.getOrdering(request, query, view!);
      if (chosen !== null && chosen.length > 0) return chosen;
      break;
    }
    return this.ordering;
  }

  protected override enginePage<R>(
    query: OrderedQuery<R>,
    url: string,
    pageSize: number,
    request: ApiRequest,
    view: PaginationView | undefined,
  ): Promise<CursorPage<R>> {
    return cursorPage(query, url, {
      pageSize,
      // Without a choice, the engine's rule: the query's own ordering, else '-created'.
      ordering: this.#chosenOrdering(request, query, view),
      cursorQueryParam: this.cursorQueryParam,
      offsetCutoff: this.offsetCutoff,
      cursorSecret: this.cursorSecret,
      invalidCursorMessage: this.invalidCursorMessage,
      maxCursorLength: this.maxCursorLength,
    });
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
    _page: PageFields<CursorPaginationPage<unknown>>,
    previousUrl: string | null,
    nextUrl: string | null,
  ): PreviousNextHtmlContext {
    return { previousUrl, nextUrl };
  }
}
