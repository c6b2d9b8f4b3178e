import type { RouteHandler } from '../routes/routes.js';
import { type BindingOptions, type RouteHandlerOptions, routeParams } from './binding.js';
import { createFetchHandler, toFetchHandler } from './fetch-handler.js';

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
 * A Hono handler serving a route table.
 *
 * @example
 * const app = new Hono();
 * app.all('*', createHonoHandler({ routes }));
 */
export function createHonoHandler(options: BindingOptions): (c: HonoContextLike) => Promise<Response> {
  const handle = createFetchHandler(options);
  return (c) => handle(c.req.raw, c.env);
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
