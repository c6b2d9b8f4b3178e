// `@pagewise/core/views`: class and function views, the list view and the ordering filter.
export {
  ApiView,
  type ApiViewOptions,
  apiView,
  MethodNotAllowed,
  toApiResponse,
  type ViewFunction,
} from './api-view.js';
export {
  ListView,
  type ListViewOptions,
  type OrderingField,
  type PaginationClass,
  type SerializerContext,
  type TypedOrdering,
} from './list-view.js';
export {
  type FilterBackend,
  type FilterView,
  OrderingFilter,
  type OrderingFilterOptions,
} from './ordering-filter.js';
