import { type ArgumentsHost, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiRequest, type FromHttpInit, type NodeRequestLike, routeParams } from '@pagewise/rest';
import type { PagewiseOptions } from './pagewise-options.js';

/**
 * A platform request as Pagewise reads it: Express's (a Node `IncomingMessage` with `params`,
 * `originalUrl` and a parsed `body`) or Fastify's (`raw` is the `IncomingMessage`).
 */
interface PlatformRequest {
  readonly raw?: NodeRequestLike;
  readonly headers?: NodeRequestLike['headers'];
  readonly params?: unknown;
  readonly body?: unknown;
  [REQUEST_STATE]?: RequestState;
}

/** What one platform request carries for Pagewise: the module's options and the request once made. */
interface RequestState {
  readonly options: PagewiseOptions;
  readonly namespace: string | null;
  request: ApiRequest | null;
}

/** Where the state lives on the platform request: one object per HTTP request, as Nest passes it around. */
const REQUEST_STATE = Symbol('@pagewise/nest.request');

const NO_OPTIONS: PagewiseOptions = Object.freeze({});

/** The platform request of an HTTP context; other contexts (RPC, WebSocket) have none. */
function platformRequestOf(host: ArgumentsHost): PlatformRequest | null {
  if (host.getType() !== 'http') return null;
  const request = host.switchToHttp().getRequest<PlatformRequest | undefined>();
  return typeof request === 'object' && request !== null ? request : null;
}

/**
 * Records the options (and the route's namespace) the request is to be built with; the
 * interceptor does it first on every route, so the request is only made, and its `Host`
 * checked, where a handler, a versioning scheme or the filter asks for it.
 */
export function bindRequestOptions(
  host: ArgumentsHost,
  options: PagewiseOptions,
  namespace: string | null,
): void {
  const platform = platformRequestOf(host);
  if (platform === null) return;
  const state = platform[REQUEST_STATE];
  if (state === undefined || state.request === null) {
    platform[REQUEST_STATE] = { options, namespace, request: null };
  }
}

/** The request already made for this HTTP context, without making one. */
export function madePageRequest(host: ArgumentsHost): ApiRequest | null {
  return platformRequestOf(host)?.[REQUEST_STATE]?.request ?? null;
}

/** The trust options of the module's options, as `ApiRequest.fromNode` takes them. */
function trustOf(
  options: PagewiseOptions,
  platform: PlatformRequest,
  namespace: string | null,
): FromHttpInit {
  const body = platform.raw !== undefined ? platform.body : undefined;
  return {
    params: routeParams(platform.params),
    namespace,
    ...(options.allowedHosts !== undefined ? { allowedHosts: options.allowedHosts } : {}),
    ...(options.publicOrigin !== undefined ? { publicOrigin: options.publicOrigin } : {}),
    ...(options.trustProxy !== undefined ? { trustProxy: options.trustProxy } : {}),
    // Fastify's parser consumed the stream; Express's parsed `req.body` is read by `fromNode` itself.
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  };
}

/**
 * The page's request for an HTTP context (a guard's, an interceptor's or a filter's): an
 * `ApiRequest` built from the Express or Fastify request under the module's `allowedHosts`,
 * `publicOrigin` and `trustProxy`, with the route's path parameters as `params`. It is made
 * once per HTTP request: the versioning scheme's `version` is on it. An untrusted `Host` throws
 * `DisallowedHost` (400). Outside `PagewiseModule` the bindings' defaults apply (local hosts only).
 * `null` for a context that is not HTTP.
 *
 * @example
 * canActivate(context: ExecutionContext) {
 *   return getPageRequest(context)?.version !== 'v1';
 * }
 */
export function getPageRequest(host: ArgumentsHost): ApiRequest | null {
  const platform = platformRequestOf(host);
  if (platform === null) return null;
  let state = platform[REQUEST_STATE];
  if (state === undefined) {
    state = { options: NO_OPTIONS, namespace: null, request: null };
    platform[REQUEST_STATE] = state;
  }
  if (state.request === null) {
    const init = trustOf(state.options, platform, state.namespace);
    state.request = ApiRequest.fromNode(platform.raw ?? (platform as NodeRequestLike), init);
  }
  return state.request;
}

function requireRequest(context: ExecutionContext): ApiRequest {
  const request = getPageRequest(context);
  if (request === null) {
    throw new TypeError(
      `@pagewise/nest: the page's request exists for HTTP routes only, not "${context.getType()}".`,
    );
  }
  return request;
}

/**
 * Parameter decorator: the page's `ApiRequest` (see `getPageRequest`), for the page functions
 * (`request.url`), the DRF paginators (`pagination.paginate(query, request)`) and `reverse`.
 *
 * @example
 * @Get()
 * list(@PageRequest() request: ApiRequest) {
 *   return pagination.paginate(fromArray(articles), request);
 * }
 */
export const PageRequest: () => ParameterDecorator = createParamDecorator(
  (_data: unknown, context: ExecutionContext): ApiRequest => requireRequest(context),
);

/**
 * Parameter decorator: the request's absolute URL (a `URL`) under the trusted origin, which the
 * engine's page functions take as their `url`.
 *
 * @example
 * @Get()
 * feed(@PageUrl() url: URL) {
 *   return cursorPage(fromArray(articles), url, { pageSize: 20, ordering: '-id' });
 * }
 */
export const PageUrl: () => ParameterDecorator = createParamDecorator(
  (_data: unknown, context: ExecutionContext): URL => requireRequest(context).url,
);

/**
 * Parameter decorator: the version the route's versioning scheme determined (`request.version`),
 * `null` on a route without a scheme or when the request names none and there is no default.
 *
 * @example
 * @Get()
 * list(@ApiVersion() version: string | null) {
 *   return version === 'v1' ? this.v1() : this.v2();
 * }
 */
export const ApiVersion: () => ParameterDecorator = createParamDecorator(
  (_data: unknown, context: ExecutionContext): string | null => requireRequest(context).version,
);
