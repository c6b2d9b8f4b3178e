import { isApiError, NotFound } from '../errors.js';
import { ApiRequest, type FromHttpInit } from '../request/api-request.js';
import { ApiResponse } from '../request/api-response.js';
import type { TrustedOriginOptions } from '../request/trusted-origin.js';
import { patchVaryHeaders } from '../request/vary.js';
import type { Routes } from '../routes/routes.js';
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
function trustOf(options: BindingOptions): FromHttpInit {
  return {
    ...(options.allowedHosts !== undefined ? { allowedHosts: options.allowedHosts } : {}),
    ...(options.publicOrigin !== undefined ? { publicOrigin: options.publicOrigin } : {}),
    ...(options.trustProxy !== undefined ? { trustProxy: options.trustProxy } : {}),
  };
}

/**
 * The framework-independent core of every binding: builds the request (refusing an untrusted
 * host with 400), routes it, runs the handler and turns failures into `{ "detail": ... }`
 * answers (unknown route 404 `Not found.`, unexpected errors 500 `A server error occurred.`).
 * With `fallthrough`, an unknown route answers `null` so the framework can go on.
 *
 * @example
 * const response = await answerRequest((init) => ApiRequest.fromFetch(raw, init), { routes });
 */
export async function answerRequest(
  build: (init: FromHttpInit) => ApiRequest,
  options: BindingOptions,
  { fallthrough = false }: { fallthrough?: boolean } = {},
): Promise<ApiResponse | null> {
  let request: ApiRequest | null = null;
  try {
    const incoming = build(trustOf(options));
    const match = options.routes.match(incoming.url.pathname);
    if (match === null || match.handler === null) {
      if (fallthrough) return null;
      throw new NotFound();
    }
    request = new ApiRequest({
      url: incoming.url,
      method: incoming.method,
      headers: incoming.headers,
      params: match.params,
      namespace: match.namespace,
      body: () => incoming.text(),
    });
    request.routes = options.routes;
    return withSchemeVary(toApiResponse(await match.handler(request)), request);
  } catch (error) {
    if (isApiError(error)) {
      const response = new ApiResponse(error.toJSON(), { status: error.status });
      patchVaryHeaders(response.headers, error.vary ?? []);
      return withSchemeVary(response, request);
    }
    (options.onError ?? logError)(error, request);
    return new ApiResponse({ detail: SERVER_ERROR_DETAIL }, { status: 500 });
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
