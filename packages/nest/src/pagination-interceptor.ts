import {
  type CallHandler,
  type ExecutionContext,
  Inject,
  Injectable,
  type NestInterceptor,
  Optional,
} from '@nestjs/common';
import { patchVaryHeaders, toWire } from '@pagewise/rest';
import { from, map, type Observable, switchMap } from 'rxjs';
import { bindRequestOptions, versionRequest } from './page-request.js';
import { asApiResponse } from './page-response.js';
import { freezeOptions, PAGEWISE_OPTIONS, type PagewiseOptions } from './pagewise-options.js';
import { mergeLink, type PlatformResponse, platformResponse } from './platform-response.js';

/**
 * The interceptor `PagewiseModule` registers globally; bind it yourself with
 * `@UseInterceptors(PaginationInterceptor)` or `app.useGlobalInterceptors(new PaginationInterceptor(options))`.
 *
 * Before the handler, on a versioned route (`@UseVersioning()`, else the module's `versioning`),
 * it makes the page's request (`getPageRequest`), whose scheme determines `request.version` and
 * refuses a version it does not allow as DRF does (404, or 406 for the `Accept` header), answers
 * 410 past a version's sunset and marks the response with the scheme's `Vary` and the version's
 * `Deprecation`, `Sunset` and `Link` headers. Other routes make no request until one is asked for.
 *
 * After it, a page value of the engine (`cursorPage`, `pageNumberPage`, `limitOffsetPage`), of
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
  /**
   * Options for the requests of its routes (frozen), over the module's; `null` takes the
   * module's, else the bindings' defaults (local hosts only). @default null
   */
  readonly options: PagewiseOptions | null;

  constructor(options?: PagewiseOptions | null) {
    this.options = options === undefined || options === null ? null : freezeOptions(options);
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    if (this.options !== null) bindRequestOptions(context, this.options);
    const versioned = versionRequest(context);
    const response = platformResponse(context);
    // An async defaultVersion function: the handler runs once the request's version is known.
    const handled =
      versioned === undefined ? next.handle() : from(versioned).pipe(switchMap(() => next.handle()));
    return handled.pipe(map((value) => answer(value, response)));
  }
}

/** Writes a Pagewise value's status and headers; its data is what Nest then sends. */
function answer(value: unknown, response: PlatformResponse): unknown {
  const apiResponse = asApiResponse(value);
  if (apiResponse === null) return value;
  // The body as every other binding writes it (`toWire`): JSON text, in which a string is a JSON
  // string (never HTML) and a bigint a decimal string, or a string sent as it is under the
  // Content-Type the response gave it. Nest sends text as it is; handing it the data instead
  // would send a string as text/html and fail on a bigint. Made first: a body that cannot be
  // written fails before any header of this response is set.
  const wire = toWire(apiResponse, 'GET');
  response.status(apiResponse.status);
  for (const [name, headerValue] of apiResponse.headers) {
    if (name === 'set-cookie') continue;
    if (name === 'vary') patchVaryHeaders(response, headerValue.split(','));
    else if (name === 'link') mergeLink(response, headerValue, true);
    else response.set(name, headerValue);
  }
  const cookies = apiResponse.headers.getSetCookie();
  if (cookies.length > 0) response.set('set-cookie', cookies);
  const type = wire.headers.get('content-type');
  if (type === null) return undefined;
  response.set('content-type', type);
  return wire.body;
}

// Nest's decorators applied as calls: the package compiles without `experimentalDecorators`, and
// the injection token is explicit, so no consumer needs `emitDecoratorMetadata`.
Injectable()(PaginationInterceptor);
Optional()(PaginationInterceptor, undefined, 0);
Inject(PAGEWISE_OPTIONS)(PaginationInterceptor, undefined, 0);
