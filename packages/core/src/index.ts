export { ApiError, ConfigurationError, NotAcceptable, NotFound, ValidationError } from './errors.js';
export {
  escapeHtml,
  type HtmlTemplate,
  type NumberedHtmlContext,
  numbersTemplate,
  type PreviousNextHtmlContext,
  previousNextTemplate,
} from './html/pagination-html.js';
export { ApiRequest, type ApiRequestInit, type RouteParams } from './http/api-request.js';
export { ApiResponse, jsonReplacer } from './http/api-response.js';
export { parsePythonInt, positiveInt, positiveIntOr } from './http/positive-int.js';
export { QueryParams } from './http/query-params.js';
export {
  compareCodePoints,
  decodeFormComponent,
  encodeFormComponent,
  parseQueryString,
  removeQueryParam,
  replaceQueryParam,
} from './http/query-string.js';
export {
  buildOpenApiDocument,
  nullableType,
  type OpenApiDocumentOptions,
  type OpenApiOperation,
} from './openapi/openapi-document.js';
export {
  integerQueryParameter,
  type JsonSchema,
  nullableUri,
  type OpenApiParameter,
  type OpenApiVersion,
  type SchemaOptions,
} from './openapi/schema-types.js';
export {
  BasePagination,
  linkHeader,
  type OrderingSource,
  type PaginatedData,
  type PaginationView,
} from './pagination/base-pagination.js';
export {
  comparePositions,
  compareStrings,
  compareUnderTerm,
  compareValues,
  kindOf,
  type ValueKind,
} from './pagination/compare-values.js';
export {
  type Cursor,
  type CursorCodecOptions,
  CursorDecodeError,
  decodeCursor,
  encodeCursor,
  orderingFingerprint,
  positionKey,
} from './pagination/cursor-codec.js';
export {
  type CursorPage,
  CursorPagination,
  type CursorPaginationOptions,
} from './pagination/cursor-pagination.js';
export { getDisplayedPageNumbers, getPageLinks, type PageLink } from './pagination/displayed-page-numbers.js';
export {
  type LimitOffsetPage,
  LimitOffsetPagination,
  type LimitOffsetPaginationOptions,
} from './pagination/limit-offset-pagination.js';
export {
  type CountResult,
  InvalidBoundError,
  type OrderedQuery,
  type PositionValue,
  type RowOf,
  type WindowRow,
  type WindowSpec,
} from './pagination/ordered-query.js';
export {
  invertOrdering,
  type KeyTerm,
  type NullsPlacement,
  type OrderingInput,
  type OrderTerm,
  parseOrdering,
  type SortDirection,
  settleNulls,
} from './pagination/ordering.js';
export {
  type PageNumberPage,
  PageNumberPagination,
  type PageNumberPaginationOptions,
} from './pagination/page-number-pagination.js';
export {
  type CountMode,
  EmptyPage,
  type HostPage,
  InvalidPage,
  PageNotAnInteger,
  Paginator,
  type PaginatorOptions,
} from './pagination/paginator.js';
export { UnorderedObjectListWarning } from './pagination/unordered-warning.js';
export { ApiSettings, type ApiSettingsOptions, W001_MESSAGE } from './settings.js';
