// DRF's paginator classes over the engine's page functions, with their HTML and OpenAPI hooks.
export {
  BasePagination,
  type OrderingSource,
  type PaginatedData,
  type PaginationView,
} from './base-pagination.js';
export {
  CursorPagination,
  type CursorPaginationOptions,
  type CursorPaginationPage,
} from './cursor-pagination.js';
export { getDisplayedPageNumbers, getPageLinks, type PageLink } from './displayed-page-numbers.js';
export {
  type LimitOffsetPage,
  LimitOffsetPagination,
  type LimitOffsetPaginationOptions,
} from './limit-offset-pagination.js';
export {
  type PageNumberPage,
  PageNumberPagination,
  type PageNumberPaginationOptions,
} from './page-number-pagination.js';
export {
  type ClientPageSizeOptions,
  ClientSizedStyle,
  type PageFields,
  type PageSizeOptions,
  type PageSnapshot,
  PageStyle,
  type PageStyleOptions,
} from './page-style.js';
export { type HostPage, Paginator, type PaginatorOptions } from './paginator.js';
