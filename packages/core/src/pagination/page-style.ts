import type { HtmlTemplate } from '../html/pagination-html.js';
import type { ApiRequest } from '../request/api-request.js';
import { BasePagination, type PaginationView } from './base-pagination.js';
import type { OrderedQuery } from './ordered-query.js';

/** What every built-in style's page snapshot has. */
export interface PageSnapshot {
  readonly rows: readonly unknown[];
}

/**
 * The shared plumbing of the built-in styles: `paginate()` makes an immutable page for one
 * request, `paginateQueryset()` keeps it as `page` so DRF's synchronous methods (links,
 * response, html) can answer for it, replacing it entirely on every call.
 */
export abstract class PageStyle<Page extends PageSnapshot, Context extends object> extends BasePagination {
  /** Renders the html controls; `null` disables them. */
  abstract template: HtmlTemplate<Context> | null;
  /** The page of the last `paginateQueryset` call. */
  page: Page | null = null;

  /** Stateless: the page for this request, or `null` when it is not paginated. */
  abstract paginate<Row>(
    query: OrderedQuery<Row>,
    request: ApiRequest,
    view?: PaginationView,
  ): Promise<Page | null>;

  /** Whether the page has neighbours worth controls. */
  protected abstract hasControls(page: Page): boolean;

  abstract override getHtmlContext(): Context;

  async paginateQueryset<Row>(
    query: OrderedQuery<Row>,
    request: ApiRequest,
    view?: PaginationView,
  ): Promise<Row[] | null> {
    this.page = null;
    this.displayPageControls = false;
    const page = await this.paginate(query, request, view);
    this.page = page;
    if (page === null) return null;
    this.displayPageControls = this.template !== null && this.hasControls(page);
    return page.rows as Row[];
  }

  /** The current page; asking before `paginateQueryset` is a programming error. */
  protected current(): Page {
    if (this.page === null) {
      throw new Error(
        `${this.constructor.name}: call paginateQueryset() before asking for the response or links`,
      );
    }
    return this.page;
  }

  override toHtml(): string {
    return this.template === null ? '' : this.template(this.getHtmlContext());
  }
}
