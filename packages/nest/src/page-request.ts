import { type ArgumentsHost, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import {
  ApiRequest,
  ConfigurationError,
  type FromHttpInit,
  type NodeRequestLike,
  routeParams,
} from '@pagewise/rest';
import type { PagewiseOptions } from './pagewise-options.js';
import { determineRouteVersion, routeNamespace, routeScheme, routeVersioning } from './route-versioning.js';

// Registry-wide symbols: a second copy of this package (an ESM and a CommonJS build, a nested
// install) reads what the first one left.
/** Where a platform request keeps its Pagewise state: one object per HTTP request in Nest. */
const REQUEST_STATE: unique symbol = Symbol.for('@pagewise/nest.request');
/** Where `PagewiseModule` leaves its options on the Express app or the Fastify instance. */
const APP_OPTIONS: unique symbol = Symbol.for('@pagewise/nest.options');

/**
 * A platform request as Pagewise reads it: Express's (a Node `IncomingMessage` with `params`,
 * `originalUrl`, a parsed `body` and its `app`) or Fastify's (`raw` is the `IncomingMessage`,
 * `server` the Fastify instance).
 */
interface PlatformRequest {
  readonly raw?: NodeRequestLike;
  readonly params?: unknown;
  readonly body?: unknown;
  readonly app?: unknown;
  readonly server?: unknown;
  [REQUEST_STATE]?: RequestState;
}

/** What one platform request carries for Pagewise. */
interface RequestState {
  /** The options an interceptor bound, over the app's. */
  options: PagewiseOptions | null;
  /** The request once made (and versioned, on a versioned route). */
  request: ApiRequest | null;
  /** What making it threw (an untrusted host, a refused version): thrown again to whoever asks. */
  failure: { readonly error: unknown } | null;
  /** The request being made while an async `defaultVersion` function answers. */
  pending: Promise<ApiRequest> | null;
}

const NO_OPTIONS: PagewiseOptions = Object.freeze({});

/**
 * Leaves the module's options on the platform's instance (the Express app, the Fastify
 * instance), where every request of that app finds them, whoever asks first: a guard runs
 * before any interceptor.
 */
export function registerAppOptions(instance: object, options: PagewiseOptions): void {
  Object.defineProperty(instance, APP_OPTIONS, { value: options, configurable: true, writable: true });
}

/** The platform request of an HTTP context; other contexts (RPC, WebSocket, GraphQL) have none. */
function platformRequestOf(host: ArgumentsHost): PlatformRequest | null {
  if (host.getType() !== 'http') return null;
  const request = host.switchToHttp().getRequest<PlatformRequest | undefined>();
  return typeof request === 'object' && request !== null ? request : null;
}

function stateOf(platform: PlatformRequest): RequestState {
  let state = platform[REQUEST_STATE];
  if (state === undefined) {
    state = { options: null, request: null, failure: null, pending: null };
    platform[REQUEST_STATE] = state;
  }
  return state;
}

/** The options this request is served under: an interceptor's, the app's, else the bindings' defaults. */
function optionsOf(platform: PlatformRequest, state: RequestState): PagewiseOptions {
  if (state.options !== null) return state.options;
  const app = (platform.app ?? platform.server) as { [APP_OPTIONS]?: PagewiseOptions } | undefined;
  return (typeof app === 'object' || typeof app === 'function') && app !== null
    ? (app[APP_OPTIONS] ?? NO_OPTIONS)
    : NO_OPTIONS;
}

/** What `ApiRequest.fromNode` takes for this platform request under `options`. */
function initOf(options: PagewiseOptions, platform: PlatformRequest, namespace: string | null): FromHttpInit {
  // Fastify's parser consumed the stream; Express's parsed `req.body` is read by `fromNode` itself.
  const body = platform.raw !== undefined ? platform.body : undefined;
  return {
    params: routeParams(platform.params),
    namespace,
    ...(options.allowedHosts !== undefined ? { allowedHosts: options.allowedHosts } : {}),
    ...(options.publicOrigin !== undefined ? { publicOrigin: options.publicOrigin } : {}),
    ...(options.trustProxy !== undefined ? { trustProxy: options.trustProxy } : {}),
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  };
}

/**
 * Binds an interceptor's options to this request (unless it was made already): a
 * `PaginationInterceptor` made with options of its own serves its routes under them.
 */
export function bindRequestOptions(context: ExecutionContext, options: PagewiseOptions): void {
  const platform = platformRequestOf(context);
  if (platform === null) return;
  const state = stateOf(platform);
  if (state.request === null && state.failure === null) state.options = options;
}

/**
 * Makes the request of a versioned route now, so that a version the route's scheme refuses is
 * answered before the handler runs, whether or not anything reads the request. A promise when
 * the route's `defaultVersion` function answers one: the request is made once it settles.
 */
export function versionRequest(context: ExecutionContext): void | Promise<void> {
  const platform = platformRequestOf(context);
  if (platform === null) return;
  const state = stateOf(platform);
  if (routeVersioning(context, optionsOf(platform, state)) === null) return;
  if (state.request !== null || state.failure !== null) return;
  const made = makePageRequest(context, platform, state);
  if (made instanceof Promise) return made.then(() => undefined);
}

/** The request already made for this HTTP context, without making one. */
export function madePageRequest(host: ArgumentsHost): ApiRequest | null {
  return platformRequestOf(host)?.[REQUEST_STATE]?.request ?? null;
}

/**
 * The page's request for an HTTP context (a guard's, an interceptor's, a parameter decorator's):
 * an `ApiRequest` built from the Express or Fastify request under `PagewiseModule`'s
 * `allowedHosts`, `publicOrigin` and `trustProxy`, with the route's path parameters as `params`
 * and its `@ApiNamespace()` as `namespace`. On a versioned route its `version` is determined as
 * it is made. It is made once per HTTP request, by whoever asks first; an untrusted `Host`
 * throws `DisallowedHost` (400) and a refused version the scheme's error, to every caller.
 * Without the module the bindings' defaults apply (local hosts only). `null` outside HTTP.
 *
 * @example
 * canActivate(context: ExecutionContext) {
 *   return getPageRequest(context)?.version !== 'v1';
 * }
 */
export function getPageRequest(context: ExecutionContext): ApiRequest | null {
  const platform = platformRequestOf(context);
  if (platform === null) return null;
  const state = stateOf(platform);
  if (state.failure !== null) throw state.failure.error;
  if (state.request !== null) return state.request;
  const made = makePageRequest(context, platform, state);
  if (made instanceof Promise) {
    // Settled by the interceptor's own call, which waits for it; nothing is left unhandled.
    made.catch(() => {});
    const error = new ConfigurationError(
      "@pagewise/nest: the route's defaultVersion function answered a promise, which the request " +
        'cannot wait for here (a guard runs before PaginationInterceptor versions the request): ' +
        'answer synchronously, or read the request after the interceptor',
    );
    throw error;
  }
  return made;
}

/**
 * Makes the page's request and versions it, keeping it (or what making it threw) on `state`; a
 * promise when the route's `defaultVersion` function answers one, the request kept once it settles.
 */
function makePageRequest(
  context: ExecutionContext,
  platform: PlatformRequest,
  state: RequestState,
): ApiRequest | Promise<ApiRequest> {
  if (state.pending !== null) return state.pending;
  const options = optionsOf(platform, state);
  const fail = (error: unknown): never => {
    state.failure = { error };
    throw error;
  };
  let request: ApiRequest;
  let versioned: void | Promise<void>;
  try {
    const init = initOf(options, platform, routeNamespace(context));
    request = ApiRequest.fromNode(platform.raw ?? (platform as NodeRequestLike), init);
    const scheme = routeScheme(context, options);
    versioned = scheme === null ? undefined : determineRouteVersion(context, request, scheme);
  } catch (error) {
    return fail(error);
  }
  if (versioned instanceof Promise) {
    state.pending = versioned.then(() => {
      state.request = request;
      return request;
    }, fail);
    return state.pending;
  }
  state.request = request;
  return request;
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
 * Parameter decorator: the page's `ApiRequest` (see `getPageRequest`), for the DRF paginators
 * (`pagination.paginate(query, request)`), the page functions (`request.url`) and `reverse`.
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
