import { ApiRequest, type RouteParams } from '../request/api-request.js';
import type { RouteHandler } from '../routes/routes.js';
import { answerRequest, answerRoute, type BindingOptions, type RouteHandlerOptions } from './binding.js';

export type { BindingOptions, RouteHandlerOptions, RouteParams };

/**
 * The connection's scheme when the runtime hands over its Node socket (`@hono/node-server` passes
 * `{ incoming }` as the second argument of `fetch`, which Hono exposes as `c.env`). There,
 * `request.url` is the absolute-form target verbatim, so its scheme is the client's word.

 */
function connectionProtocol(env: unknown): 'http' | 'https' | undefined {
  const incoming = (env as { incoming?: { socket?: { encrypted?: unknown } | null } } | null | undefined)
    ?.incoming;
  if (incoming?.socket == null) return undefined;
  return incoming.socket.encrypted === true ? 'https' : 'http';
}

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
    const protocol = connectionProtocol(env);
    const response = await answerRequest(
      (init) => ApiRequest.fromFetch(request, protocol === undefined ? init : { ...init, protocol }),
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
    const protocol = connectionProtocol(env);
    const response = await answerRoute(
      (init) => ApiRequest.fromFetch(request, protocol === undefined ? init : { ...init, protocol }),
      handler,
      () => params,
      options,
    );
    return response.toFetchResponse(request.method);
  };
}
