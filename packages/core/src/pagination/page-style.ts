import { ConfigurationError } from '../errors.js';
import type { HtmlTemplate } from '../html/pagination-html.js';
import type { ApiRequest } from '../request/api-request.js';
import type { ApiResponse } from '../request/api-response.js';
import { ApiSettings } from '../settings.js';
import { assignOptions, BasePagination, type PaginationView, paginatedResponse } from './base-pagination.js';
import { LAZY_POSITIONS } from './cursor-window.js';
import type { OrderedQuery } from './ordered-query.js';
import { requestedPageSize } from './page-size.js';

/**
 * Options every built-in style takes; each may also be set as a field of a subclass.
 *
 * @example
 * new CursorPagination({ pageSize: 20, template: null, settings })
 */
export interface PageStyleOptions<Context extends object> {
  /** Renders the html controls; `null` disables them. @default the style's own template */
  template?: HtmlTemplate<Context> | null;
  /** Where an omitted page size comes from. @default ApiSettings.defaults */
  settings?: ApiSettings;
}

/**
 * The page-size options of the styles whose clients may choose a page size (page number, cursor).
 *
 * @example
 * { pageSize: 20, pageSizeQueryParam: 'page_size', maxPageSize: 100 }
 */
export interface ClientPageSizeOptions {
  /** Rows per page. @default settings.pageSize */
  pageSize?: number | null;
  /** Lets the client choose the page size with this parameter. @default null */
  pageSizeQueryParam?: string | null;
  /** Upper bound of a client-chosen page size. @default null */
  maxPageSize?: number | null;
}

/**
 * The page-size options of a style under its own names: `pageSize`, `pageSizeQueryParam` and
 * `maxPageSize`, or limit/offset's `defaultLimit`, `limitQueryParam` and `maxLimit`.
 *
 * @example
 * { size: 20, param: 'page_size', max: 100 }
 */
export interface PageSizeOptions {
  /** The page size; `undefined` takes `settings.pageSize`. */
  readonly size: number | null | undefined;
  /** The query parameter a client chooses the size with; `null` when it cannot. */
  readonly param: string | null;
  /** Upper bound of a client-chosen size. */
  readonly max: number | null;
}

/**
 * A page as a value: what one request produced, frozen. Its links, response body, `Link` header
 * and html controls are computed from it alone, so a page never changes and a paginator never
 * holds one.
 *
 * @example
 * const page = await pagination.paginate(query, request);
 * if (page !== null) return page.response(page.rows.map(serialize));
 */
export interface PageSnapshot<Row = unknown, Context extends object = object> {
  /** The rows of this page (frozen). */
  readonly rows: readonly Row[];
  /** Absolute URL of the next page, or `null`. */
  readonly next: string | null;
  /** Absolute URL of the previous page, or `null`. */
  readonly previous: string | null;
  /** Whether the page has neighbours and the style a template (DRF's `display_page_controls`). */
  readonly displayPageControls: boolean;
  /**
   * The paginated response for the serialized rows: the style's body, with the `Link` header when
   * there is a next or previous page. The same as `getPaginatedResponse(data)` on the two-step API.
   */
  response(data: unknown[]): ApiResponse;
  /** Context of the html controls (DRF's `get_html_context`). */
  htmlContext(): Context;
  /** The html controls; `''` when the style has no template. */
  toHtml(): string;
}

/**
 * What a style computes itself; the base adds the links, the response and the controls.
 *
 * @example
 * protected override pageBody(page: PageFields<PageNumberPage<unknown>>, data: unknown[], next, previous) {
 *   return { ...super.pageBody(page, data, next, previous), page: page.number };
 * }
 */
export type PageFields<Page> = Omit<Page, Exclude<keyof PageSnapshot, 'rows'>>;

/**
 * Deep-freezes the arrays of options (`lastPageStrings`, `ordering` terms) into copies, so a
 * caller's own array stays theirs to change and the paginator's cannot be.
 */
function frozenOption(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  // Frozen already, items and all (a constant a view passes to each paginator it makes): nobody
  // can change it, so it is kept as it is.
  if (
    Object.isFrozen(value) &&
    value.every((item) => item === null || typeof item !== 'object' || Object.isFrozen(item))
  ) {
    return value;
  }
  return Object.freeze(
    value.map((item) =>
      item !== null && typeof item === 'object' && Object.getPrototypeOf(item) === Object.prototype
        ? Object.freeze({ ...item })
        : item,
    ),
  );
}

const TWO_STEP_METHODS = [
  'paginateQueryset',
  'getPaginatedResponse',
  'getNextLink',
  'getPreviousLink',
  'getHtmlContext',
  'toHtml',
] as const;

/** The prototype on `object`'s chain that defines `name` itself. */
function ownerOf(object: object, name: string): object | null {
  for (let proto = Object.getPrototypeOf(object); proto !== null; proto = Object.getPrototypeOf(proto)) {
    if (Object.hasOwn(proto, name)) return proto;
  }
  return null;
}

/**
 * The shared plumbing of the built-in styles.
 *
 * **Stateless core.** `paginate()` computes a frozen page value from `(query, request)`; it reads
 * nothing from and writes nothing to the instance but its options, so one instance serves any
 * number of concurrent requests.
 *
 * **Options frozen.** Options come from the constructor and from subclass fields. JavaScript
 * assigns a subclass's fields after the base constructor has run, so the instance is frozen at
 * the end of construction when it is a built-in class itself (`new PageNumberPagination({...})`),
 * and otherwise on its first `paginate()`. From then on an assignment to an option throws a
 * `TypeError` instead of changing pages that are being computed. A subclass that keeps state of
 * its own keeps it in `#private` fields (frozen objects still accept those).
 *
 * **DRF's two-step API** (`paginateQueryset`, then the synchronous `getPaginatedResponse`,
 * `getNextLink`, `getPreviousLink`, `getHtmlContext`, `toHtml`, `displayPageControls`) is a thin
 * per-request layer over `paginate()`: it keeps the last page on the instance, so it needs one
 * paginator per request (views make one). When calls on one instance overlap, their pages are
 * refused with a `ConfigurationError` rather than answered with another request's links; use
 * `paginate()` to share an instance.
 *
 * @example
 * const pagination = new PageNumberPagination({ pageSize: 20 }); // frozen, safe to share
 * const page = await pagination.paginate(query, request);
 * return page === null ? everything() : page.response(page.rows.map(serialize));
 */
export abstract class PageStyle<Page extends PageSnapshot, Context extends object> extends BasePagination {
  /** Renders the html controls; `null` disables them. */
  abstract template: HtmlTemplate<Context> | null;
  /** Where an omitted page size comes from. @default ApiSettings.defaults */
  settings: ApiSettings = ApiSettings.defaults;
  #page: Page | null = null;
  /** Two-step calls running now, and a count of the times one started while another ran. */
  #running = 0;
  #overlaps = 0;
  #refused = false;

  /**
   * Copies the options that are set and, for a built-in class itself (`exact`), freezes the
   * instance; a subclass is frozen on first use, once its own fields are assigned.
   */
  protected init(options: object, exact: boolean): void {
    assignOptions(this, options);
    if (exact) this.seal();
  }

  /** Freezes the options (see the class comment); idempotent. */
  protected seal(): void {
    if (Object.isFrozen(this)) return;
    const options = this as Record<string, unknown>;
    for (const key in options) {
      const value = options[key];
      if (Array.isArray(value) && Object.hasOwn(options, key)) options[key] = frozenOption(value);
    }
    Object.freeze(this);
  }

  /** The stateless page for this request, or `null` when it is not paginated. */
  abstract paginate<Row>(
    query: OrderedQuery<Row>,
    request: ApiRequest,
    view?: PaginationView,
  ): Promise<(PageSnapshot<Row, Context> & Page) | null>;

  /** The page-size options under this style's names. */
  protected abstract pageSizeOptions(): PageSizeOptions;

  /**
   * The page size for this request: the client's, clamped to the maximum, when the style lets
   * clients choose and the value is a positive integer; otherwise the style's own, then
   * `settings.pageSize`. Never stored.
   */
  getPageSize(request: ApiRequest): number | null {
    const { size, param, max } = this.pageSizeOptions();
    return requestedPageSize(request, param, max, size === undefined ? this.settings.pageSize : size);
  }

  /** Whether the page has neighbours worth controls. */
  protected abstract hasControls(page: PageFields<Page>): boolean;
  /** The next page's URL. */
  protected abstract nextLink(page: PageFields<Page>): string | null;
  /** The previous page's URL. */
  protected abstract previousLink(page: PageFields<Page>): string | null;
  /**
   * The response body around `data`. A changed layout that should also hold for `paginate()`
   * overrides this (and `getPaginatedResponseSchema`).
   */
  protected abstract pageBody(
    page: PageFields<Page>,
    data: unknown[],
    next: string | null,
    previous: string | null,
  ): object;
  /** The html controls' context. */
  protected abstract pageHtmlContext(
    page: PageFields<Page>,
    previousUrl: string | null,
    nextUrl: string | null,
  ): Context;

  /** The frozen page value: the style's fields plus links, response and controls made from them. */
  protected makePage(fields: PageFields<Page>): Page {
    Object.freeze(fields.rows);
    const next = this.nextLink(fields);
    const previous = this.previousLink(fields);
    const template = this.template;
    const htmlContext = () => this.pageHtmlContext(fields, previous, next);
    const snapshot: Omit<PageSnapshot, 'rows'> = {
      next,
      previous,
      displayPageControls: template !== null && this.hasControls(fields),
      response: (data) => paginatedResponse(this.pageBody(fields, data, next, previous), next, previous),
      htmlContext,
      toHtml: () => (template === null ? '' : template(htmlContext())),
    };
    // A cursor window made by `fetchCursorWindow` becomes the page itself: a copy would read its
    // `positions` getter, and so every row's position. Other fields are copied with
    // `Object.assign`, not a spread: V8 (Node 20) takes 15-25 us to spread two objects into one
    // this size, against 1-2 us to assign them.
    const page: PageSnapshot =
      LAZY_POSITIONS in fields ? Object.assign(fields, snapshot) : Object.assign({}, fields, snapshot);
    return Object.freeze(page) as unknown as Page;
  }

  /** The page of the last `paginateQueryset` call (two-step API), or `null`. */
  get page(): Page | null {
    return this.#page;
  }

  async paginateQueryset<Row>(
    query: OrderedQuery<Row>,
    request: ApiRequest,
    view?: PaginationView,
  ): Promise<Row[] | null> {
    this.#page = null;
    this.#refused = false;
    this.displayPageControls = false;
    const alone = this.#running === 0;
    if (!alone) this.#overlaps += 1;
    const overlaps = this.#overlaps;
    this.#running += 1;
    let page: (PageSnapshot<Row, Context> & Page) | null;
    try {
      page = await this.paginate(query, request, view);
    } finally {
      this.#running -= 1;
    }
    if (!alone || overlaps !== this.#overlaps) {
      // Another request's page may replace this one before its caller asks for the links.
      this.#refused = true;
      return page === null ? null : [...page.rows];
    }
    this.#page = page;
    this.displayPageControls = page?.displayPageControls ?? false;
    return page === null ? null : [...page.rows];
  }

  /** The current page; asking before `paginateQueryset`, or after overlapping calls, is a programming error. */
  protected current(): Page {
    if (this.#refused) {
      throw new ConfigurationError(
        `${this.constructor.name}: paginateQueryset() calls overlapped on one instance, so its page may ` +
          `belong to another request. Share a paginator through paginate(query, request), whose page ` +
          `value answers response(data), or make one paginator per request.`,
      );
    }
    if (this.#page === null) {
      throw new Error(
        `${this.constructor.name}: call paginateQueryset() before asking for the response or links`,
      );
    }
    return this.#page;
  }

  override getNextLink(): string | null {
    return this.current().next;
  }

  override getPreviousLink(): string | null {
    return this.current().previous;
  }

  /** The response for the serialized rows of the last page; links through `getNextLink`/`getPreviousLink`. */
  getPaginatedResponse(data: unknown[]): ApiResponse {
    const page = this.current();
    const next = this.getNextLink();
    const previous = this.getPreviousLink();
    return paginatedResponse(this.pageBody(page, data, next, previous), next, previous);
  }

  override getHtmlContext(): Context {
    return this.pageHtmlContext(this.current(), this.getPreviousLink(), this.getNextLink());
  }

  override toHtml(): string {
    return this.template === null ? '' : this.template(this.getHtmlContext());
  }
}

/**
 * Whether `pagination` can be used through `paginate()` with the same answers as its two-step
 * API: a built-in style none of whose two-step methods is overridden below the class that
 * defines `paginate` (a subclass that changes `getPaginatedResponse` keeps the two-step path).
 *
 * @example
 * if (usesPageValues(paginator)) return (await paginator.paginate(query, request))?.response(data);
 */
export function usesPageValues(pagination: BasePagination): pagination is PageStyle<PageSnapshot, object> {
  if (!(pagination instanceof PageStyle)) return false;
  const stateless = ownerOf(pagination, 'paginate');
  if (stateless === null) return false;
  return TWO_STEP_METHODS.every((name) => {
    const owner = ownerOf(pagination, name);
    return owner === stateless || (owner !== null && Object.prototype.isPrototypeOf.call(owner, stateless));
  });
}
