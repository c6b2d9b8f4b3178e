/**
 * One entry of a numbered control. A break is `{ url: null, number: null, isActive: false, isBreak: true }`.
 * It lives with the markup so that html/ stays a leaf that pagination/ can use.
 */
export interface PageLink {
  readonly url: string | null;
  readonly number: number | null;
  readonly isActive: boolean;
  readonly isBreak: boolean;
}

/** Context of the numbered control (page number and limit/offset styles). */
export interface NumberedHtmlContext {
  readonly previousUrl: string | null;
  readonly nextUrl: string | null;
  readonly pageLinks: readonly PageLink[];
}

/** Context of the previous/next control (cursor style). */
export interface PreviousNextHtmlContext {
  readonly previousUrl: string | null;
  readonly nextUrl: string | null;
}

/** A template renders a paginator's html context to markup. `null` in options disables controls. */
export type HtmlTemplate<Context> = (context: Context) => string;

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#x27;',
};

/** Escapes text for an HTML attribute or element body. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);
}

function edgeItem(url: string | null, rel: 'prev' | 'next', label: string, text: string): string {
  if (url === null) {
    return `<li class="page-item disabled"><a class="page-link" href="#" aria-label="${label}" aria-disabled="true" tabindex="-1">${text}</a></li>`;
  }
  return `<li class="page-item"><a class="page-link" href="${escapeHtml(url)}" rel="${rel}" aria-label="${label}">${text}</a></li>`;
}

/**
 * The numbered control (DRF's `pagination/numbers.html`): `«`, the page links with breaks, `»`.
 *
 * @example
 * numbersTemplate(paginator.getHtmlContext())
 * // '<nav aria-label="Pagination"><ul class="pagination">…</ul></nav>'
 */
export function numbersTemplate(context: NumberedHtmlContext): string {
  const items = context.pageLinks.map((link) => {
    if (link.isBreak || link.url === null) {
      return '<li class="page-item disabled"><span class="page-link" aria-hidden="true">&hellip;</span></li>';
    }
    if (link.isActive) {
      return `<li class="page-item active"><a class="page-link" href="${escapeHtml(link.url)}" aria-current="page" aria-label="Page ${link.number}">${link.number}</a></li>`;
    }
    return `<li class="page-item"><a class="page-link" href="${escapeHtml(link.url)}" aria-label="Page ${link.number}">${link.number}</a></li>`;
  });
  return [
    '<nav aria-label="Pagination"><ul class="pagination">',
    edgeItem(context.previousUrl, 'prev', 'Previous page', '&laquo;'),
    ...items,
    edgeItem(context.nextUrl, 'next', 'Next page', '&raquo;'),
    '</ul></nav>',
  ].join('');
}

/**
 * The previous/next control (DRF's `pagination/previous_and_next.html`).
 *
 * @example
 * previousNextTemplate({ previousUrl: null, nextUrl: 'http://testserver/?cursor=eyJ…' })
 */
export function previousNextTemplate(context: PreviousNextHtmlContext): string {
  const item = (
    url: string | null,
    cls: 'previous' | 'next',
    rel: 'prev' | 'next',
    label: string,
    text: string,
  ) =>
    url === null
      ? `<li class="${cls} disabled"><a href="#" aria-label="${label}" aria-disabled="true" tabindex="-1">${text}</a></li>`
      : `<li class="${cls}"><a href="${escapeHtml(url)}" rel="${rel}" aria-label="${label}">${text}</a></li>`;
  return [
    '<nav aria-label="Pagination"><ul class="pager">',
    item(context.previousUrl, 'previous', 'prev', 'Previous page', '&laquo; Previous'),
    item(context.nextUrl, 'next', 'next', 'Next page', 'Next &raquo;'),
    '</ul></nav>',
  ].join('');
}
