export {
  isPagewiseClientError,
  PagewiseClientError,
  type PagewiseClientErrorCode,
  type PagewiseClientErrorInit,
} from './client-error.js';
export {
  type FetchLike,
  type IteratePagesOptions,
  iteratePages,
  iterateResults,
  type PageBody,
  type PaginatedBody,
  pageResults,
} from './iterate-pages.js';
export { type LinkValue, nextLinkTarget, parseLinkHeader } from './link-header.js';
