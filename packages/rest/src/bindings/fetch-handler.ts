import { ApiRequest, type RouteParams } from '../request/api-request.js';
import type { RouteHandler } from '../routes/routes.js';
import { answerRequest, answerRoute, type BindingOptions, type RouteHandlerOptions } from './binding.js';
import { connectionInit } from './connection-protocol.js';

export type { BindingOptions, RouteHandlerOptions, RouteParams };

/**
 * A Fetch API handler (`Request` in, `Response` out) serving a route table: Hono, Deno, Bun,
 * workers. The scheme of links is the connection's: the Node socket when the runtime passes it
 * (`@hono/node-server`), otherwise the scheme of `request.url`; `X-Forwarded-Proto` only with
 * `trustProxy`.
 *
 * @example
 * Deno.serve(createFetchHandler({ routes, allowedHosts: ['api.example.org'] }));
 */
export function createFetchHandler(
  options: BindingOptions,
): (request: Request, env?: unknown) => Promise<Response> {
  return async (request, env) => {
    const response = await answerRequest(
      (init) => ApiRequest.fromFetch(request, connectionInit(init, env)),
      options,
    );
    return response!.toFetchResponse(request.method);
  };
}

/**
 * One Pagewise handler as a Fetch API handler for your own router (Deno, Bun, workers, any
 * `Request` => `Response` router): path parameters are what your router matched. An `ApiError`
 * is answered as DRF does; any other error rejects, for your router's error handling. `env` is
 * the runtime's second `fetch` argument (on `@hono/node-server` it holds the socket, whose scheme
 * the links take).
 *
 * @example
 * const detail = toFetchHandler(ArticleDetail, { routes });
 * Deno.serve((request) => detail(request, { id: new URL(request.url).pathname.split('/')[2] }));
 */
export function toFetchHandler(
  handler: RouteHandler,
  options: RouteHandlerOptions = {},
): (request: Request, params?: RouteParams, env?: unknown) => Promise<Response> {
  return async (request, params = {}, env) => {
    const response = await answerRoute(
      (init) => ApiRequest.fromFetch(request, connectionInit(init, env)),
      handler,
      () => params,
      options,
    );
    return response.toFetchResponse(request.method);
  };
}
