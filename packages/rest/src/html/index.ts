// the paginators' page controls as pure string templates.
export {
  escapeHtml,
  type HtmlTemplate,
  type NumberedHtmlContext,
  numbersTemplate,
  type PageLink,
  type PreviousNextHtmlContext,
  previousNextTemplate,
} from './pagination-html.js';
