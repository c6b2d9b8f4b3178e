import { escapeHtml } from '../html/pagination-html.js';
import type { ApiRequest } from '../request/api-request.js';
import { stringifyJson } from '../request/api-response.js';
import { type MediaType, parseMediaType } from '../request/media-type.js';

/**
 * What a renderer is told besides the data.
 *
 * @example
 * jsonRenderer.render(data, { request, status: 200, acceptedMediaType: 'application/json' })
 */
export interface RenderContext {
  readonly request: ApiRequest | null;
  readonly status: number;
  /** The negotiated media type (`application/json; indent=4`), or the renderer's own. */
  readonly acceptedMediaType: string;
  /** Pagination controls to show (the paginator's `toHtml()`), if any. */
  readonly controlsHtml?: string;
  /** Heading of a browsable page. */
  readonly title?: string;
  /**
   * What a browsable page says about the version's lifecycle (deprecated, retired), with the
   * page about it, if any. @default none
   */
  readonly versionNotice?: { readonly text: string; readonly link: string | null } | undefined;
}

/**
 * Turns response data into a body for one media type (DRF's `BaseRenderer`). Content
 * negotiation picks one per request from a view's `renderers`.
 *
 * @example
 * const csv: Renderer = {
 *   mediaType: 'text/csv', format: 'csv', charset: 'utf-8',
 *   render: (data) => toCsv(data),
 * };
 */
export interface Renderer {
  /** The media type it produces: `application/json`. */
  readonly mediaType: string;
  /** Name used by `?format=` and format suffixes: `json`. */
  readonly format: string;
  /** Charset added to `Content-Type`, `null` for none. */
  readonly charset: string | null;
  /**
   * Whether it also serves a specific media type other than `mediaType` (vendor types).
   * @default only `mediaType`
   */
  accepts?(mediaType: MediaType): boolean;
  render(data: unknown, context: RenderContext): string;
}

/** An RFC 6839 structured-syntax `+json` subtype: `vnd.pagewise+json`. */
const JSON_SUFFIX = /^[a-z0-9!#$&^_.+-]+\+json$/;

/**
 * `application/json` (and any `application/*+json` vendor type), DRF's `JSONRenderer`:
 * compact output, or indented by the `indent` parameter of the accepted media type (0..8);
 * `null` (a response without data) renders as nothing.
 *
 * @example
 * jsonRenderer.render({ a: 1 }, { request: null, status: 200, acceptedMediaType: 'application/json; indent=2' })
 */
export const jsonRenderer: Renderer = Object.freeze({
  mediaType: 'application/json',
  format: 'json',
  charset: null,
  accepts(mediaType: MediaType): boolean {
    return mediaType.type === 'application' && JSON_SUFFIX.test(mediaType.subtype);
  },
  render(data: unknown, context: RenderContext): string {
    // DRF's JSONRenderer renders None as nothing (and the response then has no Content-Type).
    if (data === undefined || data === null) return '';
    // A media type without parameters (the usual `application/json`) has no indent to read.
    const raw = context.acceptedMediaType.includes(';')
      ? parseMediaType(context.acceptedMediaType).params.indent
      : undefined;
    const indent =
      raw !== undefined && /^\s*[+-]?\d+\s*$/.test(raw) ? Math.max(0, Math.min(8, Number(raw))) : 0;
    return stringifyJson(data, indent || undefined) as string;
  },
});

/** A small stylesheet for the browsable page, Bootstrap's pagination look without Bootstrap. */
const BROWSABLE_CSS = [
  'body{font-family:system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1d2330}',
  'main{max-width:960px;margin:0 auto;padding:1.5rem}',
  'h1{font-size:1.6rem;margin:0 0 .5rem}',
  '.request-info code{background:#e8ebf1;padding:.15rem .4rem;border-radius:4px}',
  '.response-info{color:#2b7a3d;font-weight:600;margin-left:.5rem}',
  '.response-body{background:#fff;border:1px solid #d9dde5;border-radius:6px;padding:1rem;overflow:auto;font-size:.85rem}',
  '.pagination,.pager{display:flex;gap:.25rem;list-style:none;padding:0;margin:1rem 0;flex-wrap:wrap}',
  '.pagination a,.pagination span,.pager a{display:block;padding:.35rem .7rem;border:1px solid #c9cfda;border-radius:4px;background:#fff;color:#2457c5;text-decoration:none}',
  '.pagination .active a{background:#2457c5;color:#fff;border-color:#2457c5}',
  '.version-notice{background:#fff4d6;border:1px solid #e5b94a;border-radius:6px;padding:.6rem .9rem;margin:.75rem 0}',
  '.pagination .disabled a,.pagination .disabled span,.pager .disabled a{color:#98a0ad;pointer-events:none}',
].join('');

/**
 * `text/html`: a small browsable page with the response data (escaped) and the paginator's
 * controls, DRF's `BrowsableAPIRenderer` reduced to reading. Format name `api`, as in DRF.
 *
 * @example
 * browsableHtmlRenderer.render({ results: [] }, { request, status: 200, acceptedMediaType: 'text/html' })
 */
/** JSON strings holding an absolute http(s) URL, in escaped text: their URL is already escaped. */
const ESCAPED_URL_STRING = /&quot;(https?:\/\/(?:[^&\s<>]|&amp;)+)&quot;/g;

/**
 * Makes the URLs of the escaped JSON clickable, as DRF's `urlize_quoted_links` does, so an API
 * root or a page's `next` can be followed in the browser. Only http(s) URLs become links.
 */
function linkUrls(escaped: string): string {
  return escaped.replace(ESCAPED_URL_STRING, '&quot;<a href="$1" rel="nofollow">$1</a>&quot;');
}

/** The lifecycle notice of a browsable page, `''` without one. */
function versionNoticeHtml(notice: RenderContext['versionNotice']): string {
  if (notice === undefined) return '';
  const more =
    notice.link === null
      ? ''
      : ` <a href="${escapeHtml(notice.link)}" rel="deprecation">More information</a>`;
  return `<aside class="version-notice" role="note">${escapeHtml(notice.text)}${more}</aside>`;
}

export const browsableHtmlRenderer: Renderer = Object.freeze({
  mediaType: 'text/html',
  format: 'api',
  charset: 'utf-8',
  render(data: unknown, context: RenderContext): string {
    const title = escapeHtml(context.title ?? 'Pagewise API');
    const line = context.request
      ? `${escapeHtml(context.request.method)} ${escapeHtml(context.request.url.pathname + context.request.url.search)}`
      : '';
    const body = data === undefined ? '' : (stringifyJson(data, 4) as string);
    // Controls above and below the data: long pages should not hide them.
    const controls = context.controlsHtml
      ? `<div class="pagination-controls">${context.controlsHtml}</div>`
      : '';
    return [
      '<!DOCTYPE html>',
      '<html lang="en"><head><meta charset="utf-8">',
      '<meta name="robots" content="noindex,nofollow">',
      '<meta name="viewport" content="width=device-width, initial-scale=1">',
      `<title>${title}</title>`,
      `<style>${BROWSABLE_CSS}</style></head>`,
      '<body><main class="pagewise-browsable">',
      `<h1>${title}</h1>`,
      `<p class="request-info"><code>${line}</code> <span class="response-info">HTTP ${context.status}</span></p>`,
      versionNoticeHtml(context.versionNotice),
      controls,
      `<pre class="response-body">${linkUrls(escapeHtml(body))}</pre>`,
      controls,
      '</main></body></html>',
    ].join('\n');
  },
});

/**
 * The renderers of a view unless it names its own: JSON first (the default), then HTML.
 *
 * @example
 * class Api extends ApiView { renderers = [jsonRenderer]; } // JSON only
 */
export const defaultRenderers: readonly Renderer[] = Object.freeze([jsonRenderer, browsableHtmlRenderer]);
