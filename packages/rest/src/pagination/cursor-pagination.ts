import {
  CountCache,
  type CountMode,
  type CursorEncryptionKey,
  type CursorPage,
  type CursorPaginated,
  type CursorSecret,
  cursorPage,
  cursorProtection,
  DEFAULT_MAX_CURSOR_LENGTH,
  type KeyTerm,
  type OrderedQuery,
  type OrderingInput,
  type OrderTerm,
  parseOrdering,
  signingKey,
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
   * Encrypts cursors with AES-256-GCM (Web Crypto): their positions are unreadable and any change
   * is `404 Invalid cursor`. A key is 32 characters or more, else `ConfigurationError`; a list
   * rotates keys (the first encrypts, every one decrypts). Where it is set, plain and signed
   * cursors are `404 Invalid cursor`; with `cursorSecret` as well, cursors are encrypted.
   * @default null
   */
  cursorEncryptionKey?: CursorEncryptionKey | null;
  /**
   * Milliseconds a cursor stays valid after its page was served; older ones are `404 Invalid
   * cursor`. Needs `cursorSecret` or `cursorEncryptionKey`: else `ConfigurationError` at
   * construction. @default null (never expire)
   */
  cursorTtl?: number | null;
  /**
   * A total beside each page: `exact` counts, `estimated` asks the adapter for the planner's
   * estimate. The count runs beside the page's one keyset statement, never before it; the body
   * is then `{ count, next, previous, results }` (with `countMode` / `countAge` as
   * `PageNumberPagination` has them). @default 'none' (the body stays `{ next, previous, results }`)
   */
  count?: CountMode;
  /** Reuse each query's count for this many milliseconds, in a cache of this pagination's own. @default null */
  countCacheTtl?: number | null;
  /** A count cache to use (and share); its own `ttlMs` applies. @default null */
  countCache?: CountCache | null;
  /**
   * Milliseconds an exact count may run: one still running then is cancelled on the server and
   * the estimate answered instead, with `countMode: 'estimated'`. @default null (no limit)
   */
  countTimeout?: number | null;
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

/** A rejected page rejects its caller's await; the ordering it would have written down is not needed. */
function ignore(): void {}

/** An ordering as it was written (names, or copies of its terms): what a later request is compared with. */
type WrittenOrdering = string | ReadonlyArray<string | OrderTerm>;

/** A copy of `ordering` that its writer cannot change afterwards. */
function writtenOrdering(ordering: OrderingInput | readonly OrderTerm[]): WrittenOrdering {
  if (!Array.isArray(ordering)) return ordering as string;
  return ordering.map((item: string | OrderTerm) =>
    typeof item === 'string' ? item : { field: item.field, direction: item.direction, nulls: item.nulls },
  );
}

/** Whether `ordering` is written as `written` was: the same names, or terms of equal fields. */
function writtenAs(written: WrittenOrdering, ordering: OrderingInput | readonly OrderTerm[]): boolean {
  if (typeof written === 'string' || typeof ordering === 'string') return written === ordering;
  if (!Array.isArray(ordering) || ordering.length !== written.length) return false;
  for (let i = 0; i < written.length; i += 1) {
    const a = written[i]!;
    const b: unknown = ordering[i];
    if (typeof a === 'string' || typeof b !== 'object' || b === null) {
      if (a !== b) return false;
      continue;
    }
    const term = b as OrderTerm;
    if (a.field !== term.field || a.direction !== term.direction || a.nulls !== term.nulls) return false;
  }
  return true;
}

/**
 * The key order of the last page (the engine's `page.order`) with what it was keyed from: the
 * ordering chosen (`null`: the query's own, then written down too) and the query's unique key.
 */
interface KeyedOrdering {
  readonly chosen: WrittenOrdering | null;
  readonly own: WrittenOrdering | null;
  readonly uniqueKey: string | null;
  readonly uniqueKeys: readonly string[] | undefined;
  readonly order: readonly KeyTerm[];
}

/** Whether two composite keys (`OrderedQuery.uniqueKeys`) name the same columns in one order. */
function sameKeys(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a.length !== b.length) return false;
  return a.every((key, i) => key === b[i]);
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
  cursorEncryptionKey: CursorEncryptionKey | null = null;
  cursorTtl: number | null = null;
  count: CountMode = 'none';
  countCacheTtl: number | null = null;
  countCache: CountCache | null = null;
  countTimeout: number | null = null;
  /** The cache `countCacheTtl` makes, on first use (the instance is frozen by then). */
  #ownCountCache: CountCache | null = null;
  maxCursorLength = DEFAULT_MAX_CURSOR_LENGTH;
  /**
   * The key order of the last page and what it was keyed from. A request asking for the same
   * ordering of a query with the same unique key hands the engine that order, which the engine
   * uses as it is (no parsing, keying and freezing per page; adapters find their plans by the
   * same frozen array). It holds nothing of a request, so concurrent requests may share it (or
   * replace it) freely.
   */
  #keyed: KeyedOrdering | null = null;
  /** Whether this paginator made a page before (see `#keep`). */
  #served = false;

  // `NoInfer`: the row type is the one given (`CursorPagination<Article>`), never guessed from the ordering.
  constructor(options: CursorPaginationOptions<NoInfer<Row>> = {}) {
    super();
    assignOptions(this, options);
    // Refused here, not at the first request (a secret a subclass field sets is refused at its
    // first page, by the engine). Without one there is nothing to check.
    if (this.cursorSecret !== null && this.cursorSecret !== undefined) signingKey(this.cursorSecret);
    if (new.target === CursorPagination) {
      // A short key, a lifetime nothing protects or a bad count cache fail here, at construction
      // (a subclass's own fields, at its first page: the engine checks them).
      cursorProtection(this);
      this.seal();
      this.#countCache();
    }
  }

  /** `countCache`, else the one `countCacheTtl` asks for (a bad TTL is refused at construction). */
  #countCache(): CountCache | null {
    if (this.countCache !== null || this.countCacheTtl === null || this.count === 'none')
      return this.countCache;
    this.#ownCountCache ??= new CountCache({ ttlMs: this.countCacheTtl });
    return this.#ownCountCache;
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
    // Without a choice, the engine's rule: the query's own ordering, else '-created'.
    const chosen = this.#chosenOrdering(request, query, view);
    const keyed = this.#keyed;
    const known =
      keyed !== null &&
      keyed.uniqueKey === query.uniqueKey &&
      sameKeys(keyed.uniqueKeys, query.uniqueKeys) &&
      (chosen === null
        ? keyed.chosen === null && writtenAs(keyed.own!, query.ordering)
        : keyed.chosen !== null && writtenAs(keyed.chosen, chosen));
    // The request's URL as parsed when it reads as `url` (no user, fragment or host spelled
    // otherwise): the engine then takes its parameters and links from it without parsing it again.
    const page = cursorPage(query, request.url.href === url ? request.url : url, {
      pageSize,
      ordering: known ? keyed.order : chosen,
      cursorQueryParam: this.cursorQueryParam,
      offsetCutoff: this.offsetCutoff,
      cursorSecret: this.cursorSecret,
      cursorEncryptionKey: this.cursorEncryptionKey,
      cursorTtl: this.cursorTtl,
      count: this.count,
      countCache: this.#countCache(),
      countTimeout: this.countTimeout,
      invalidCursorMessage: this.invalidCursorMessage,
      maxCursorLength: this.maxCursorLength,
    });
    if (!known) this.#keep(chosen, query, page);
    return page;
  }

  /**
   * Keeps the key order `page` is made with for `chosen` over queries like `query` (see `#keyed`),
   * once the page is made: beside it, not awaited in its way. Not on the first page a paginator
   * makes: one made per request (as views make them) would keep it for nobody.
   */
  #keep(
    chosen: OrderingInput | null,
    query: OrderedQuery<unknown>,
    page: Promise<CursorPage<unknown>>,
  ): void {
    if (!this.#served) {
      this.#served = true;
      return;
    }
    // Written down now, as asked for: the caller may change its ordering once the page is asked.
    const written = chosen === null ? null : writtenOrdering(chosen);
    const own = chosen === null ? writtenOrdering(query.ordering) : null;
    const { uniqueKey, uniqueKeys } = query;
    page.then(({ order }) => {
      this.#keyed = { chosen: written, own, uniqueKey, uniqueKeys, order };
    }, ignore);
  }

  override getPaginatedResponseSchema(schema: JsonSchema, options: SchemaOptions = {}): JsonSchema {
    const version = options.openapi ?? '3.0';
    const c = this.cursorQueryParam;
    // Count fields only where a count is configured; `countMode` where it can be other than exact.
    const counted = this.count !== 'none';
    const cached = counted && (this.countCache !== null || this.countCacheTtl !== null);
    const moded = counted && (cached || this.count === 'estimated' || this.countTimeout !== null);
    return {
      type: 'object',
      required: counted ? ['count', 'results'] : ['results'],
      properties: {
        ...(counted ? { count: { type: 'integer', example: 123 } } : {}),
        ...(moded
          ? { countMode: { type: 'string', enum: ['exact', 'estimated'], example: this.count } }
          : {}),
        ...(cached ? { countAge: { type: 'integer', minimum: 0, example: 12 } } : {}),
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
