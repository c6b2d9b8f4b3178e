import { ApiRequest } from '../request/api-request.js';
import type { RouteHandler } from '../routes/routes.js';
import { answerRequest, type BindingOptions, type RouteHandlerOptions, routeParams } from './binding.js';
import { connectionInit } from './connection-protocol.js';
import { toFetchHandler } from './fetch-handler.js';

export type { BindingOptions, RouteHandlerOptions };

/**
 * The part of a Hono `Context` the handler reads.
 *
 * @example
 * app.all('*', createHonoHandler({ routes }));
 */
export interface HonoContextLike {
  readonly req: { readonly raw: Request };
  /** The runtime's bindings; on Node (`@hono/node-server`) they hold the socket. */
  readonly env?: unknown;
}

/**
 * Options of the Hono handler.
 *
 * @example
 * app.all('*', createHonoHandler({ routes, fallthrough: false, forwardErrors: true }));
 */
export interface HonoHandlerOptions extends BindingOptions {
  /**
   * Call Hono's `next()` for paths no route matches, so the app's later routes (or its
   * `notFound`) answer; Hono runs every matching handler in registration order, so a catch-all
   * registered first would otherwise shadow them. `false` answers such paths
   * `404 {"detail": "Not found."}`, as does a call without `next` (the handler used directly).
   * @default true
   */
  readonly fallthrough?: boolean;
  /**
   * Throw unexpected errors (anything but an `ApiError`) to Hono's `app.onError`. `false`
   * answers the JSON 500 `{"detail": "A server error occurred."}` and reports through `onError`.
   * @default false
   */
  readonly forwardErrors?: boolean;
}

/** Hono's `next`. */
export type HonoNext = () => Promise<void>;

/**
 * A Hono handler serving a route table.
 *
 * @example
 * const app = new Hono();
 * app.all('*', createHonoHandler({ routes }));
 */
export function createHonoHandler(
  options: HonoHandlerOptions,
): (c: HonoContextLike, next?: HonoNext) => Promise<Response | undefined> {
  const forwardErrors = options.forwardErrors ?? false;
  return async (c, next) => {
    const raw = c.req.raw;
    const response = await answerRequest(
      (init) => ApiRequest.fromFetch(raw, connectionInit(init, c.env)),
      options,
      { fallthrough: (options.fallthrough ?? true) && next !== undefined, forwardErrors },
    );
    if (response !== null) return response.toFetchResponse(raw.method);
    await next!();
    return undefined;
  };
}

/**
 * The part of a Hono `Context` a per-route handler reads: the request and its path parameters.
 *
 * @example
 * app.get('/articles/:id/', toHonoHandler(ArticleDetail));
 */
export interface HonoRouteContextLike extends HonoContextLike {
  readonly req: {
    readonly raw: Request;
    /** Every path parameter Hono matched, decoded. */
    param(): Record<string, string>;
  };
}

/**
 * One Pagewise handler (a `ListView.asView()`, a viewset's `asView({ get: 'list' })`, an
 * `apiView`, any `(request) => ...`) as an ordinary Hono handler: path parameters come from
 * `c.req.param()`, the links' origin from the trusted `Host` as in every binding. An `ApiError`
 * is answered as DRF does; any other error is thrown to Hono (`app.onError`). Mount it with
 * `app.all` (or `app.on([...methods], path, ...)`) to let the view answer `OPTIONS` and 405s.
 *
 * @example
 * const app = new Hono();
 * app.get('/:version/articles/', toHonoHandler(ArticleList, { routes }));
 */
export function toHonoHandler(
  handler: RouteHandler,
  options: RouteHandlerOptions = {},
): (c: HonoRouteContextLike) => Promise<Response> {
  const handle = toFetchHandler(handler, options);
  return (c) => handle(c.req.raw, routeParams(c.req.param()), c.env);
}
