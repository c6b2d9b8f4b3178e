// `@pagewise/nest`: Pagewise in NestJS. The page's request in a controller (`@PageRequest()`,
// `@PageUrl()`, `@ApiVersion()`), page values answered with body, status and `Link` header
// (`PaginationInterceptor`), DRF's error answers (`PagewiseExceptionFilter`), DRF's versioning
// schemes on Nest's routes (`@UseVersioning()`, `@ApiNamespace()`) and `PagewiseModule`, which
// registers them for the whole app. Works on Nest's Express and Fastify platforms, without
// `emitDecoratorMetadata`.

export { ApiVersion, getPageRequest, PageRequest, PageUrl } from './page-request.js';
export {
  asApiResponse,
  type EnginePageLike,
  type PageValue,
  pageResponse,
  type RestPageLike,
} from './page-response.js';
export { PagewiseExceptionFilter } from './pagewise-exception-filter.js';
export { type PagewiseAsyncOptions, PagewiseModule } from './pagewise-module.js';
export { PAGEWISE_OPTIONS, type PagewiseOptions } from './pagewise-options.js';
export { PaginationInterceptor } from './pagination-interceptor.js';
export { ApiNamespace, type RouteVersioning, UseVersioning } from './route-versioning.js';
