// `@pagewise/core`: the engine, values in and values out. The adapter contract (`OrderedQuery`) and
// orderings, the cursor codec, the three styles as page functions over `(query, url, options)`,
// pages without HTTP (`paginateCursor`, `streamRows`, `connectionFromQuery`), counts, errors and
// warnings. Web standards only; nothing of requests, responses, HTML, OpenAPI or routing:
// `@pagewise/rest` is Django REST Framework's web layer on top of it.

export { closestName } from './contract/closest-name.js';
export { compareUnderTerm, kindOf, type ValueKind } from './contract/compare-values.js';
export { CountCache, type CountCacheOptions } from './contract/count-cache.js';
export { INTEGER_RANGES, type IntegerRange, integerLookup } from './contract/integer-lookup.js';
export {
  type CountOptions,
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
} from './contract/ordered-query.js';
export {
  invertOrdering,
  type KeyTerm,
  type NullsPlacement,
  type OrderingField,
  type OrderingInput,
  type OrderTerm,
  parseOrdering,
  type SortDirection,
  settleNulls,
  type TypedOrdering,
} from './contract/ordering.js';
export {
  type Cursor,
  CursorDecodeError,
  DEFAULT_MAX_CURSOR_LENGTH,
  decodeCursor,
  decodeCursorAsync,
  encodeCursor,
  encodeCursorAsync,
  orderingFingerprint,
} from './cursor/cursor-codec.js';
export type { CursorEncryptionKey } from './cursor/cursor-encryption.js';
export { type CursorSecret, signingKey } from './cursor/cursor-signature.js';
export { cursorProtection } from './cursor/cursor-window.js';
export {
  ApiError,
  ConfigurationError,
  type FieldErrors,
  isApiError,
  isConfigurationError,
  NotAcceptable,
  NotFound,
  ValidationError,
} from './errors.js';
export {
  type Connection,
  type ConnectionArguments,
  type ConnectionOptions,
  connectionFromQuery,
  type Edge,
  type PageInfo,
} from './jobs/connection-from-query.js';
export {
  type CursorResult,
  type PaginateCursorOptions,
  paginateCursor,
} from './jobs/paginate-cursor.js';
export { type StreamRowsOptions, streamRows } from './jobs/stream-rows.js';
export { type CursorPage, type CursorPageOptions, cursorPage } from './pages/cursor-page.js';
export { type LimitOffsetPageOptions, limitOffsetPage, type OffsetPage } from './pages/limit-offset-page.js';
export {
  type CountMode,
  EmptyPage,
  InvalidPage,
  NumberedPages,
  PageNotAnInteger,
} from './pages/numbered-pages.js';
export { type NumberedPage, type PageNumberPageOptions, pageNumberPage } from './pages/page-number-page.js';
export { linkHeader } from './pages/page-value.js';
export type {
  CursorPaginated,
  LimitOffsetPaginated,
  PageNumberPaginated,
  Paginated,
} from './pages/paginated.js';
export { positiveInt } from './url/positive-int.js';
export { LinkTemplate, QueryParams, removeQueryParam, replaceQueryParam } from './url/query-string.js';
export {
  emitWarning,
  PaginationWarning,
  UnorderedObjectListWarning,
  type WarningHook,
} from './warnings.js';
