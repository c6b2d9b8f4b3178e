// class and function views, the list view and the ordering filter.
export {
  ApiView,
  type ApiViewOptions,
  apiView,
  MethodNotAllowed,
  PermissionDenied,
  toApiResponse,
  type ViewFunction,
  type ViewMetadata,
} from './api-view.js';
export {
  type ActionMap,
  GenericViewSet,
  ModelViewSet,
  ReadOnlyModelViewSet,
  VIEW_SET_ACTIONS,
  type ViewSetAction,
  type ViewSetOptions,
  type WriteContext,
  type WriteValues,
} from './generic-view-set.js';
export {
  ListView,
  type ListViewOptions,
  type PaginationClass,
  type SerializerContext,
} from './list-view.js';
export {
  type FilterBackend,
  type FilterView,
  OrderingFilter,
  type OrderingFilterOptions,
} from './ordering-filter.js';
export { ParseError, PayloadTooLarge, readRequestData, UnsupportedMediaType } from './request-data.js';
export {
  DefaultRouter,
  type DefaultRouterOptions,
  type RegisterOptions,
  SimpleRouter,
  type ViewSetClass,
} from './routers.js';
export { defaultLabel, type FieldMetadata, serializerInfo } from './simple-metadata.js';
export { dedentDescription, viewNameOf } from './view-names.js';
