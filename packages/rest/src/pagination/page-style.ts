import {
  ConfigurationError,
  linkHeader,
  type OrderedQuery,
  PaginationWarning,
  positiveInt,
  type WarningHook,
} from '@pagewise/core';
import type { HtmlTemplate } from '../html/pagination-html.js';
import type { ApiRequest } from '../request/api-request.js';
import { ApiResponse } from '../request/api-response.js';
import { ApiSettings } from '../settings.js';
import { BasePagination, type PaginationView } from './base-pagination.js';

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
 * What DRF's layer adds to an engine page: the `ApiResponse`, the html controls and DRF's
 * `display_page_controls`. A page value is frozen; its links, response and controls are computed
 * from it alone, so a page never changes and a paginator never holds one but on the two-step API.
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
  response(data: readonly unknown[]): ApiResponse;
  /** Context of the html controls (DRF's `get_html_context`). */
  htmlContext(): Context;
  /** The html controls; `''` when the style has no template. */
  toHtml(): string;
}

/**
 * The engine page a style's hooks (`pageBody`, `pageHtmlContext`) receive: the page without what
 * DRF's layer adds.
 *
 * @example
 * protected override pageBody(page: PageFields<PageNumberPage<unknown>>, data: unknown[], next, previous) {
 *   return { ...super.pageBody(page, data, next, previous), page: page.number };
 * }
 */
export type PageFields<Page> = Omit<Page, Exclude<keyof PageSnapshot, 'rows' | 'next' | 'previous'>>;

/** What an engine page holds for DRF's layer: its links and the body around serialized rows. */
export interface EnginePage {
  readonly rows: readonly unknown[];
  readonly next: string | null;
  readonly previous: string | null;
  /** The page's response headers (`{ link }` when it has a link). */
  readonly headers: Readonly<Record<string, string>>;
  body(data: readonly unknown[]): object;
}

/** The URL a page was served for, which its html controls link from. */
export interface ServedPage {
  /** The request's absolute URL (`request.buildAbsoluteUri()`). */
  readonly url: string;
}

/** The two-step API's one stored value: a page, or who holds the slot while a page is made. */
type Slot<Page> = { readonly page: Page | null } | { readonly pending: object } | typeof OVERLAPPED;

/** Headers carrying a `Link` to `next` and `previous`, when there is one. */
function linkHeaders(next: string | null, previous: string | null): Record<string, string> {
  const link = linkHeader(next, previous);
  return link === null ? {} : { link };
}

/** Where a paginator class keeps the hooks its pages warn through, one per settings (`engineWarnings`). */
const ENGINE_WARNINGS = Symbol('pagewise.engineWarnings');

/** Where a paginator class keeps that it warned of a missing page size (`PaginationWarning`). */
const WARNED_WITHOUT_PAGE_SIZE = Symbol('pagewise.warnedWithoutPageSize');

/** The slot once two-step calls overlapped on one instance: their pages may be each other's. */
const OVERLAPPED = Object.freeze({ overlapped: true });

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

/**
 * The shared plumbing of the built-in styles: options in, the engine's page function, DRF's web
 * layer out (`ApiResponse`, html controls, OpenAPI hooks).
 *
 * **Options.** A plain options object (`new CursorPagination({ pageSize: 50 })`) or, for DRF users,
 * subclass fields (`class Feed extends CursorPagination { pageSize = 50 }`). The options are frozen
 * at the end of construction for a built-in class itself, and on the first page for a subclass
 * (JavaScript assigns its fields after the base constructor has run); from then on an assignment
 * throws a `TypeError` instead of changing pages that are being computed.
 *
 * **Stateless core.** `paginate()` computes a frozen page value from `(query, request)`: it calls
 * the engine's page function with the options and adds what DRF's layer answers with. It reads
 * nothing from and writes nothing to the instance but its options, so one instance serves any
 * number of concurrent requests.
 *
 * **DRF's two-step API** (`paginateQueryset`, then the synchronous `getPaginatedResponse`,
 * `getNextLink`, `getPreviousLink`, `getHtmlContext`, `toHtml`, `displayPageControls`) stores the
 * one page value `paginate()` made, for the calls that follow: it needs one paginator per request
 * (views make one). When calls on one instance overlap, their pages are refused with a
 * `ConfigurationError` rather than answered with another request's links; use `paginate()` to
 * share an instance.
 *
 * @example
 * const pagination = new PageNumberPagination({ pageSize: 20 }); // frozen, safe to share
 * const page = await pagination.paginate(query, request);
 * return page === null ? everything() : page.response(page.rows.map(serialize));
 */
export abstract class PageStyle<
  Page extends PageSnapshot & EnginePage & ServedPage,
  Context extends object,
> extends BasePagination {
  /** Renders the html controls; `null` disables them. */
  abstract template: HtmlTemplate<Context> | null;
  /** Where an omitted page size comes from. @default ApiSettings.defaults */
  settings: ApiSettings = ApiSettings.defaults;
  #slot: Slot<Page> = { page: null };

  /**
   * Freezes the options (see the class comment); idempotent. A built-in class itself seals in its
   * constructor, once its options are assigned; a subclass on first use, once its own fields are.
   */
  protected seal(): void {
    if (Object.isFrozen(this)) return;
    const options = this as Record<string, unknown>;
    for (const key in options) {
      const value = options[key];
      if (Array.isArray(value) && Object.hasOwn(options, key)) options[key] = frozenOption(value);
    }
    Object.freeze(this);
  }

  /**
   * Stateless: the page for this request, or `null` when it is not paginated (no page size). The
   * engine's page function makes the page (`enginePage`); this adds DRF's response and controls.
   */
  async paginate<Row>(
    query: OrderedQuery<Row>,
    request: ApiRequest,
    view?: PaginationView,
  ): Promise<(PageSnapshot<Row, Context> & Page) | null> {
    this.seal();
    const pageSize = this.getPageSize(request);
    if (!pageSize) return null;
    const url = request.buildAbsoluteUri();
    return this.makePage(await this.enginePage(query, url, pageSize, request, view), url) as PageSnapshot<
      Row,
      Context
    > &
      Page;
  }

  /** The engine's page for this request, made by the style's page function with its options. */
  protected abstract enginePage<Row>(
    query: OrderedQuery<Row>,
    url: string,
    pageSize: number,
    request: ApiRequest,
    view: PaginationView | undefined,
  ): Promise<Omit<PageFields<Page>, 'url'>>;

  /** DRF's `get_page_size`: the rows per page for this request, `null` for none (not paginated). */
  abstract getPageSize(request: ApiRequest): number | null;

  /**
   * `settings.onWarning` as the engine's page functions are given it: one hook per paginator class
   * and settings (a view makes a paginator per request), so the engine, which tells each distinct
   * warning once per hook, tells an unordered query's warning once, not on every request.
   */
  protected engineWarnings(): WarningHook {
    const style = this.constructor as { [ENGINE_WARNINGS]?: WeakMap<ApiSettings, WarningHook> };
    if (!Object.hasOwn(style, ENGINE_WARNINGS)) {
      Object.defineProperty(style, ENGINE_WARNINGS, { value: new WeakMap() });
    }
    const hooks = style[ENGINE_WARNINGS]!;
    const settings = this.settings;
    let hook = hooks.get(settings);
    if (hook === undefined) {
      hook = (warning, options) =>
        options === undefined ? settings.onWarning(warning) : settings.onWarning(warning, options);
      hooks.set(settings, hook);
    }
    return hook;
  }

  /**
   * The page size chosen by `options` (under the style's own names): the client's size, clamped
   * to the maximum, when the style lets clients choose and the value is a positive integer;
   * otherwise the style's own, then `settings.pageSize`. Never stored. With no size anywhere a
   * `PaginationWarning` goes out, once per class.
   */
  protected pageSizeFor(request: ApiRequest, { size, param, max }: PageSizeOptions): number | null {
    const fallback = size === undefined ? this.settings.pageSize : size;
    if (fallback === null) this.#warnWithoutPageSize();
    const text = param ? request.queryParams.get(param) : null;
    if (text === null) return fallback;
    try {
      return positiveInt(text, { strict: true, cutoff: max });
    } catch {
      return fallback;
    }
  }

  /**
   * Pagination was asked for (this paginator exists) and no page size is set anywhere: DRF then
   * lists everything, rarely what was meant. Warned once per class: the class keeps that it did.
   */
  #warnWithoutPageSize(): void {
    const style = this.constructor as { [WARNED_WITHOUT_PAGE_SIZE]?: true };
    if (Object.hasOwn(style, WARNED_WITHOUT_PAGE_SIZE)) return;
    Object.defineProperty(style, WARNED_WITHOUT_PAGE_SIZE, { value: true });
    const name = this.constructor.name || 'A paginator';
    this.settings.onWarning(
      new PaginationWarning(
        `${name} has no page size, and neither have the settings, so every row is listed unpaginated ` +
          `(unless a client asks for a size). Set one: new ${name}({ pageSize: 20 }) (defaultLimit for ` +
          `LimitOffsetPagination), a subclass field, or new ApiSettings({ pageSize: 20 }).`,
      ),
    );
  }

  /**
   * The response body around `data` (the engine page's body, with these links). A changed layout
   * that should also hold for `paginate()` overrides this (and `getPaginatedResponseSchema`).
   */
  protected pageBody(
    page: PageFields<Page>,
    data: unknown[],
    next: string | null,
    previous: string | null,
  ): object {
    const body = (page as unknown as EnginePage).body(data);
    return next === page.next && previous === page.previous ? body : Object.assign(body, { next, previous });
  }

  /** Whether the page has neighbours worth controls. @default a next or previous link */
  protected hasControls(page: PageFields<Page>): boolean {
    return page.next !== null || page.previous !== null;
  }

  /** The html controls' context. */
  protected abstract pageHtmlContext(
    page: PageFields<Page>,
    previousUrl: string | null,
    nextUrl: string | null,
  ): Context;

  /**
   * The frozen page value: the engine page (its fields, and its `body` on its prototype) plus the
   * URL it was served for, the response and the controls made from them.
   */
  protected makePage(engine: Omit<PageFields<Page>, 'url'>, url: string): Page {
    const { next, previous } = engine;
    const template = this.template;
    const page: PageFields<Page> = Object.assign(Object.create(Object.getPrototypeOf(engine)), engine, {
      url,
    });
    const htmlContext = () => this.pageHtmlContext(page, previous, next);
    return Object.freeze(
      Object.assign(page, {
        displayPageControls: template !== null && this.hasControls(page),
        response: (data: readonly unknown[]) => this.#response(page, data as unknown[], next, previous),
        htmlContext,
        toHtml: () => (template === null ? '' : template(htmlContext())),
      }),
    ) as unknown as Page;
  }

  /** The paginated response: `pageBody`, with the page's own `Link` header unless the links changed. */
  #response(
    page: PageFields<Page>,
    data: unknown[],
    next: string | null,
    previous: string | null,
  ): ApiResponse {
    const body = this.pageBody(page, data, next, previous);
    const same = next === page.next && previous === page.previous;
    const headers = same ? (page as unknown as EnginePage).headers : linkHeaders(next, previous);
    return new ApiResponse(body, { headers });
  }

  /** The page of the last `paginateQueryset` call (two-step API), or `null`. */
  get page(): Page | null {
    const slot = this.#slot;
    return 'page' in slot ? slot.page : null;
  }

  override get displayPageControls(): boolean {
    return this.page?.displayPageControls ?? false;
  }

  override set displayPageControls(_value: boolean) {
    // Derived from the stored page; DRF's assignment in a custom `paginate_queryset` has nothing to change.
  }

  async paginateQueryset<Row>(
    query: OrderedQuery<Row>,
    request: ApiRequest,
    view?: PaginationView,
  ): Promise<Row[] | null> {
    // The slot holds this call's marker while its page is made: a call that finds another's marker
    // there overlaps it, and both leave the slot refused.
    const pending = { pending: {} };
    const running = !('page' in this.#slot) && this.#slot !== OVERLAPPED;
    this.#slot = running ? OVERLAPPED : pending;
    let page: (PageSnapshot<Row, Context> & Page) | null;
    try {
      page = await this.paginate(query, request, view);
    } catch (error) {
      if (this.#slot === pending) this.#slot = { page: null };
      throw error;
    }
    if (this.#slot === pending) this.#slot = { page };
    else this.#slot = OVERLAPPED;
    return page === null ? null : [...page.rows];
  }

  /** The current page; asking before `paginateQueryset`, or after overlapping calls, is a programming error. */
  protected current(): Page {
    const slot = this.#slot;
    if (!('page' in slot)) {
      throw new ConfigurationError(
        `${this.constructor.name}: paginateQueryset() calls overlapped on one instance, so its page may ` +
          `belong to another request. Share a paginator through paginate(query, request), whose page ` +
          `value answers response(data), or make one paginator per request.`,
      );
    }
    if (slot.page === null) {
      throw new Error(
        `${this.constructor.name}: call paginateQueryset() before asking for the response or links`,
      );
    }
    return slot.page;
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
    return this.#response(page, data, this.getNextLink(), this.getPreviousLink());
  }

  override getHtmlContext(): Context {
    return this.pageHtmlContext(this.current(), this.getPreviousLink(), this.getNextLink());
  }

  override toHtml(): string {
    return this.template === null ? '' : this.template(this.getHtmlContext());
  }
}

/**
 * A style whose clients may choose the page size (page number, cursor), under DRF's names:
 * `pageSize`, `pageSizeQueryParam`, `maxPageSize`.
 *
 * @example
 * new PageNumberPagination({ pageSize: 20, pageSizeQueryParam: 'page_size', maxPageSize: 100 });
 */
export abstract class ClientSizedStyle<
  Page extends PageSnapshot & EnginePage & ServedPage,
  Context extends object,
> extends PageStyle<Page, Context> {
  pageSize?: number | null;
  pageSizeQueryParam: string | null = null;
  pageSizeQueryDescription = 'Number of results to return per page.';
  maxPageSize: number | null = null;

  override getPageSize(request: ApiRequest): number | null {
    return this.pageSizeFor(request, {
      size: this.pageSize,
      param: this.pageSizeQueryParam,
      max: this.maxPageSize,
    });
  }
}
