export { ApiError, ConfigurationError, NotAcceptable, NotFound, ValidationError } from './errors.js';
export {
  escapeHtml,
  type HtmlTemplate,
  type NumberedHtmlContext,
  numbersTemplate,
  type PreviousNextHtmlContext,
  previousNextTemplate,
} from './html/pagination-html.js';
export type { FromHttpInit, NodeRequestLike } from './http/api-request.js';
export { ApiRequest, type ApiRequestInit, type RouteParams } from './http/api-request.js';
export { ApiResponse, jsonReplacer } from './http/api-response.js';
export {
  answerRequest,
  type BindingOptions,
  headerRecord,
  SERVER_ERROR_DETAIL,
  toWire,
  type WireResponse,
} from './http/binding.js';
export {
  forcedRenderer,
  type Negotiated,
  type NegotiationInput,
  selectRenderer,
} from './http/content-negotiation.js';
export { createExpressMiddleware, type ExpressMiddlewareOptions } from './http/express-middleware.js';
export {
  createFastifyHandler,
  createFastifyPlugin,
  type FastifyInstanceLike,
  type FastifyReplyLike,
  type FastifyRequestLike,
} from './http/fastify-plugin.js';
export { createFetchHandler, createHonoHandler, type HonoContextLike } from './http/fetch-handler.js';
export { createNodeHandler, type NodeResponseLike, writeNodeResponse } from './http/node-handler.js';
export { parsePythonInt, positiveInt, positiveIntOr } from './http/positive-int.js';
export { QueryParams } from './http/query-params.js';
export {
  compareCodePoints,
  decodeFormComponent,
  encodeFormComponent,
  LinkTemplate,
  parseQueryString,
  removeQueryParam,
  replaceQueryParam,
} from './http/query-string.js';
export {
  browsableHtmlRenderer,
  defaultRenderers,
  jsonRenderer,
  type RenderContext,
  type Renderer,
} from './http/renderers.js';
export {
  DEFAULT_ALLOWED_HOSTS,
  DisallowedHost,
  isAllowedHost,
  type OriginEvidence,
  splitDomainPort,
  type TrustedOriginOptions,
  trustedOrigin,
} from './http/trusted-origin.js';
export { patchVaryHeaders } from './http/vary.js';
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
  MAX_LINK_HEADER_LENGTH,
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
  isPositionValue,
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
export { type PageSnapshot, PageStyle } from './pagination/page-style.js';
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
export { plainReverse, preserveBuiltinQueryParams, type ReverseOptions, reverse } from './routes/reverse.js';
export { NoReverseMatch, type Route, type RouteHandler, type RouteMatch, Routes } from './routes/routes.js';
export { ApiSettings, type ApiSettingsOptions, W001_MESSAGE } from './settings.js';
export { AcceptHeaderVersioning } from './versioning/accept-header-versioning.js';
export {
  BaseVersioning,
  type VersioningClass,
  type VersioningOptions,
} from './versioning/base-versioning.js';
export { HostNameVersioning, type HostNameVersioningOptions } from './versioning/host-name-versioning.js';
export { type MediaType, mediaTypePrecedence, parseAccept, parseMediaType } from './versioning/media-type.js';
export { NamespaceVersioning } from './versioning/namespace-versioning.js';
export { QueryParameterVersioning } from './versioning/query-parameter-versioning.js';
export { URLPathVersioning } from './versioning/url-path-versioning.js';
export {
  ApiView,
  type ApiViewOptions,
  apiView,
  MethodNotAllowed,
  toApiResponse,
  type ViewFunction,
} from './views/api-view.js';
export {
  ListView,
  type ListViewOptions,
  type PaginationClass,
  type SerializerContext,
} from './views/list-view.js';
export { INTEGER_RANGES, type IntegerRange, integerLookup } from './views/lookup-value.js';
export {
  type FilterBackend,
  type FilterView,
  OrderingFilter,
  type OrderingFilterOptions,
} from './views/ordering-filter.js';
