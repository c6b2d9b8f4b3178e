// `@pagewise/core/pagination`: the paginators, the cursor codec and the adapter contract.
export {
  BasePagination,
  linkHeader,
  MAX_LINK_HEADER_LENGTH,
  type OrderingSource,
  type PaginatedData,
  type PaginationView,
} from './base-pagination.js';
export {
  comparePositions,
  compareStrings,
  compareUnderTerm,
  compareValues,
  kindOf,
  type ValueKind,
} from './compare-values.js';
export {
  type Connection,
  type ConnectionArguments,
  type ConnectionOptions,
  connectionFromQuery,
  type Edge,
  type PageInfo,
} from './connection-from-query.js';
export { type CachedCountResult, CountCache, type CountCacheOptions } from './count-cache.js';
export {
  type Cursor,
  type CursorCodecOptions,
  CursorDecodeError,
  DEFAULT_MAX_CURSOR_LENGTH,
  decodeCursor,
  encodeCursor,
  orderingFingerprint,
  positionKey,
} from './cursor-codec.js';
export { type CursorPage, CursorPagination, type CursorPaginationOptions } from './cursor-pagination.js';
export type { CursorSecret } from './cursor-signature.js';
export { getDisplayedPageNumbers, getPageLinks, type PageLink } from './displayed-page-numbers.js';
export {
  type LimitOffsetPage,
  LimitOffsetPagination,
  type LimitOffsetPaginationOptions,
} from './limit-offset-pagination.js';
export {
  type CountResult,
  type FetchedRows,
  fetchedRowsOf,
  InvalidBoundError,
  isInvalidBoundError,
  isPositionValue,
  type OrderedQuery,
  type PositionValue,
  type RowOf,
  type WindowRow,
  type WindowSpec,
} from './ordered-query.js';
export {
  invertOrdering,
  type KeyTerm,
  type NullsPlacement,
  type OrderingInput,
  type OrderTerm,
  parseOrdering,
  type SortDirection,
  settleNulls,
} from './ordering.js';
export {
  type PageNumberPage,
  PageNumberPagination,
  type PageNumberPaginationOptions,
} from './page-number-pagination.js';
export {
  type ClientPageSizeOptions,
  type PageFields,
  type PageSizeOptions,
  type PageSnapshot,
  PageStyle,
  type PageStyleOptions,
  usesPageValues,
} from './page-style.js';
export {
  type CursorOrderingOptions,
  type CursorResult,
  type PaginateCursorOptions,
  paginateCursor,
} from './paginate-cursor.js';
export type { CursorPaginated, LimitOffsetPaginated, PageNumberPaginated, Paginated } from './paginated.js';
export {
  type CountMode,
  EmptyPage,
  type HostPage,
  InvalidPage,
  PageNotAnInteger,
  Paginator,
  type PaginatorOptions,
} from './paginator.js';
export { type StreamRowsOptions, streamRows } from './stream-rows.js';
export { UnorderedObjectListWarning } from './unordered-warning.js';
