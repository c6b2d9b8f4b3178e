import {
  type CallHandler,
  type ExecutionContext,
  Inject,
  Injectable,
  type NestInterceptor,
  Optional,
} from '@nestjs/common';
import { type BaseVersioning, Gone, patchVaryHeaders, type VersionStatus } from '@pagewise/rest';
import { map, type Observable } from 'rxjs';
import { bindRequestOptions, getPageRequest } from './page-request.js';
import { asApiResponse } from './page-response.js';
import { freezeOptions, PAGEWISE_OPTIONS, type PagewiseOptions } from './pagewise-options.js';
import { type PlatformResponse, platformResponse } from './platform-response.js';
import { routeNamespace, routeScheme } from './route-versioning.js';

/**
 * The interceptor `PagewiseModule` registers globally; bind it yourself with
 * `@UseInterceptors(PaginationInterceptor)` or `app.useGlobalInterceptors(new PaginationInterceptor(options))`.
 *
 * Before the handler: the route's versioning scheme (`@UseVersioning()`, else the module's
 * `versioning`) determines `request.version` on the page's request, refusing a version it does
 * not allow as DRF does (404, or 406 for the `Accept` header), answering 410 past a version's
 * sunset, and marking the response with the scheme's `Vary` and the version's `Deprecation`,
 * `Sunset` and `Link` headers. Routes without a scheme build no request until asked.
 *
 * After it: a page value of the engine (`cursorPage`, `pageNumberPage`, `limitOffsetPage`), of
 * the DRF paginators (`pagination.paginate()`) or an `ApiResponse` is answered with its body,
 * status and headers (the `Link` header of the page's links) on Express and Fastify alike.
 * Anything else passes through untouched.
 *
 * @example
 * @Get()
 * feed(@PageUrl() url: URL) {
 *   return cursorPage(fromArray(articles), url, { pageSize: 20, ordering: '-id' }); // body + Link header
 * }
 */
export class PaginationInterceptor implements NestInterceptor {
  /** The module's options (frozen); the bindings' defaults without the module. @default {} */
  readonly options: PagewiseOptions;

  constructor(options?: PagewiseOptions | null) {
    this.options = freezeOptions(options ?? {});
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    bindRequestOptions(context, this.options, routeNamespace(context));
    const scheme = routeScheme(context, this.options);
    const response = platformResponse(context);
    if (scheme !== null) this.determineVersion(context, scheme, response);
    return next.handle().pipe(map((value) => answer(value, response)));
  }

  /**
   * DRF's `initial()` for versioning: the scheme's `Vary` first (errors vary on it too), then the
   * version, then its lifecycle.
   */
  private determineVersion(
    context: ExecutionContext,
    scheme: BaseVersioning,
    response: PlatformResponse,
  ): void {
    if (scheme.varyHeaders.length > 0) patchVaryHeaders(response, scheme.varyHeaders);
    const request = getPageRequest(context)!;
    request.version = scheme.determineVersion(request, request.params);
    request.versioningScheme = scheme;
    const status = scheme.versionStatus(request.version);
    if (status === null) return;
    if (status.gone) throw new Gone(scheme.sunsetDetail(status.version));
    applyLifecycleHeaders(response, status);
  }
}

/** A version's `Deprecation` and `Sunset`, and its `Link` values after any already there. */
function applyLifecycleHeaders(response: PlatformResponse, status: VersionStatus): void {
  const { deprecation, sunset, link } = status.headers;
  if (deprecation !== undefined) response.set('deprecation', deprecation);
  if (sunset !== undefined) response.set('sunset', sunset);
  if (link !== undefined) mergeLink(response, link, false);
}

/** Adds `link` values to the response's `Link`: a page's go first, as paginators set them. */
function mergeLink(response: PlatformResponse, link: string, first: boolean): void {
  const existing = response.get('link');
  if (existing === null || existing === '') response.set('link', link);
  else response.set('link', first ? `${link}, ${existing}` : `${existing}, ${link}`);
}

/** Writes a Pagewise value's status and headers; its data is what Nest then sends. */
function answer(value: unknown, response: PlatformResponse): unknown {
  const apiResponse = asApiResponse(value);
  if (apiResponse === null) return value;
  response.status(apiResponse.status);
  for (const [name, headerValue] of apiResponse.headers) {
    if (name === 'set-cookie') continue;
    if (name === 'vary') patchVaryHeaders(response, headerValue.split(','));
    else if (name === 'link') mergeLink(response, headerValue, true);
    else response.set(name, headerValue);
  }
  const cookies = apiResponse.headers.getSetCookie();
  if (cookies.length > 0) response.set('set-cookie', cookies);
  return apiResponse.data;
}

// Nest's decorators applied as calls: the package compiles without `experimentalDecorators`, and
// the injection token is explicit, so no consumer needs `emitDecoratorMetadata`.
Injectable()(PaginationInterceptor);
Optional()(PaginationInterceptor, undefined, 0);
Inject(PAGEWISE_OPTIONS)(PaginationInterceptor, undefined, 0);
