import { type ApiError, isApiError, NotFound } from '@pagewise/core';
import {
  type ApiRequest,
  type FromHttpInit,
  type RouteParams,
  routedApiRequest,
} from '../request/api-request.js';
import { ApiResponse } from '../request/api-response.js';
import type { TrustedOriginOptions } from '../request/trusted-origin.js';
import { patchVaryHeaders } from '../request/vary.js';
import type { RouteHandler, Routes } from '../routes/routes.js';
import { toApiResponse } from '../views/api-view.js';

/**
 * What every HTTP binding takes.
 *
 * @example
 * createNodeHandler({ routes, allowedHosts: ['api.example.org'], trustProxy: true })
 */
export interface BindingOptions extends TrustedOriginOptions {
  /** The route table to serve; the bindings put it on `request.routes` for `reverse`. */
  readonly routes: Routes;
  /**
   * Told about errors that are not `ApiError`s before the 500 answer goes out.
   * @default logs with console.error
   */
  readonly onError?: (error: unknown, request: ApiRequest | null) => void;
}

/**
 * The 500 body: never the error's own message, which may hold internals.
 *
 * @example
 * // 500 body: { "detail": "A server error occurred." }
 */
export const SERVER_ERROR_DETAIL = 'A server error occurred.';

function logError(error: unknown, request: ApiRequest | null): void {
  console.error(`pagewise: ${request?.method ?? ''} ${request?.url.pathname ?? ''} failed:`, error);
}

/**
 * A plain handler that set a versioning scheme itself still varies on what the scheme reads
 * (views already did this when rendering).
 */
function withSchemeVary(response: ApiResponse, request: ApiRequest | null): ApiResponse {
  const vary = (request?.versioningScheme as { varyHeaders?: unknown } | null | undefined)?.varyHeaders;
  if (Array.isArray(vary) && vary.length > 0) patchVaryHeaders(response.headers, vary);
  return response;
}

/** The trust options of a binding, without the rest. */
function trustOf(options: TrustedOriginOptions): FromHttpInit {
  return {
    ...(options.allowedHosts !== undefined ? { allowedHosts: options.allowedHosts } : {}),
    ...(options.publicOrigin !== undefined ? { publicOrigin: options.publicOrigin } : {}),
    ...(options.trustProxy !== undefined ? { trustProxy: options.trustProxy } : {}),
  };
}

/** An `ApiError`'s DRF answer (`{ "detail": ... }`, its status and `Vary`). */
function errorResponse(error: ApiError, request: ApiRequest | null): ApiResponse {
  const response = new ApiResponse(error.toJSON(), { status: error.status });
  patchVaryHeaders(response.headers, error.vary ?? []);
  return withSchemeVary(response, request);
}

/** The request a handler sees: the built one with the route's params, namespace and table. */
function routedRequest(
  incoming: ApiRequest,
  params: RouteParams,
  namespace: string | null,
  routes: Routes | null,
): ApiRequest {
  const request = routedApiRequest(incoming, params, namespace);
  request.routes = routes;
  return request;
}

/** How `answerRequest` treats what it cannot serve. */
export interface AnswerRequestMode {
  /** An unknown route answers `null` so the framework can go on. @default false */
  readonly fallthrough?: boolean;
  /** Unexpected errors reject instead of answering 500 (a framework's error handler takes them). @default false */
  readonly forwardErrors?: boolean;
}

/**
 * The framework-independent core of every binding: builds the request (refusing an untrusted
 * host with 400), routes it, runs the handler and turns failures into `{ "detail": ... }`
 * answers (unknown route 404 `Not found.`, unexpected errors 500 `A server error occurred.`).
 * With `fallthrough`, an unknown route answers `null` so the framework can go on; with
 * `forwardErrors`, unexpected errors reject.
 *
 * @example
 * const response = await answerRequest((init) => ApiRequest.fromFetch(raw, init), { routes });
 */
export async function answerRequest(
  build: (init: FromHttpInit) => ApiRequest,
  options: BindingOptions,
  { fallthrough = false, forwardErrors = false }: AnswerRequestMode = {},
): Promise<ApiResponse | null> {
  let request: ApiRequest | null = null;
  try {
    const incoming = build(trustOf(options));
    const match = options.routes.match(incoming.url.pathname);
    if (match === null || match.handler === null) {
      if (fallthrough) return null;
      throw new NotFound();
    }
    request = routedRequest(incoming, match.params, match.namespace, options.routes);
    return withSchemeVary(toApiResponse(await match.handler(request)), request);
  } catch (error) {
    if (isApiError(error)) return errorResponse(error, request);
    if (forwardErrors) throw error;
    (options.onError ?? logError)(error, request);
    return new ApiResponse({ detail: SERVER_ERROR_DETAIL }, { status: 500 });
  }
}

/**
 * What every per-route handler (`toExpressHandler`, `toFastifyHandler`, `toHonoHandler`,
 * `toNodeHandler`, `toFetchHandler`) takes: the bindings' trust rules, and the route table
 * `reverse` reads when the handler is mounted on a framework's own router.
 *
 * @example
 * app.get('/articles/:id/', toExpressHandler(ArticleDetail.asView(), { routes, allowedHosts: ['api.example.org'] }));
 */
export interface RouteHandlerOptions extends TrustedOriginOptions {
  /**
   * Put on `request.routes`, for `reverse(name, { request })` (and `DefaultRouter`'s API root).
   * Without it `reverse` needs its own `routes` option, else throws a `ConfigurationError`.
   * Paginators' links need no table: they are built from the request's own URL.
   * @default null
   */
  readonly routes?: Routes | null;
  /** The namespace `NamespaceVersioning` reads (`request.namespace`). @default null */
  readonly namespace?: string | null;
}

/**
 * Path parameters as a framework hands them over, as strings: Express 5 gives a wildcard's
 * segments as a list, which are joined back with `/`.
 *
 * @example
 * routeParams({ id: '7', rest: ['a', 'b'] }) // { id: '7', rest: 'a/b' }
 */
export function routeParams(params: unknown): RouteParams {
  const result: Record<string, string> = {};
  if (typeof params !== 'object' || params === null) return result;
  for (const [name, value] of Object.entries(params)) {
    if (typeof value === 'string') result[name] = value;
    else if (Array.isArray(value)) result[name] = value.join('/');
  }
  return result;
}

/**
 * The framework-independent core of every per-route handler: builds the request under the
 * bindings' trust rules (an untrusted host is a 400), runs `handler` with the framework's path
 * parameters (`null` from `params`: 404 `Not found.`) and answers. An `ApiError` becomes its DRF
 * answer; any other error rejects, for the framework's own error handling.
 *
 * @example
 * const response = await answerRoute((init) => ApiRequest.fromNode(req, init), view, () => req.params, { routes });
 */
export async function answerRoute(
  build: (init: FromHttpInit) => ApiRequest,
  handler: RouteHandler,
  params: (request: ApiRequest) => RouteParams | null,
  options: RouteHandlerOptions = {},
): Promise<ApiResponse> {
  let request: ApiRequest | null = null;
  try {
    const incoming = build(trustOf(options));
    const matched = params(incoming);
    if (matched === null) throw new NotFound();
    request = routedRequest(incoming, matched, options.namespace ?? null, options.routes ?? null);
    return withSchemeVary(toApiResponse(await handler(request)), request);
  } catch (error) {
    if (isApiError(error)) return errorResponse(error, request);
    throw error;
  }
}

/**
 * Headers as a record for Node-style APIs; `Set-Cookie` stays a list.
 *
 * @example
 * headerRecord(new Headers({ vary: 'Accept' })) // { vary: 'Accept' }
 */
export function headerRecord(headers: Headers): Record<string, string | string[]> {
  const record: Record<string, string | string[]> = {};
  for (const [name, value] of headers) {
    if (name !== 'set-cookie') record[name] = value;
  }
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) record['set-cookie'] = cookies;
  return record;
}
