import { ApiRequest, type NodeRequestLike } from '../request/api-request.js';
import type { RouteHandler } from '../routes/routes.js';
import {
  answerRequest,
  answerRoute,
  type BindingOptions,
  type RouteHandlerOptions,
  routeParams,
} from './binding.js';
import { type NodeResponseLike, writeNodeResponse } from './node-handler.js';

export type { BindingOptions, NodeRequestLike, NodeResponseLike, RouteHandlerOptions };

/**
 * Options of the Express middleware.
 *
 * @example
 * app.use(createExpressMiddleware({ routes, fallthrough: false }));
 */
export interface ExpressMiddlewareOptions extends BindingOptions {
  /**
   * Pass requests no route matches on to the next middleware (`next()`), so the app's own later
   * routes still answer. `false` answers 404 `{"detail": "Not found."}` for every other path.
   * @default true
   */
  readonly fallthrough?: boolean;
  /**
   * Pass unexpected errors (anything but an `ApiError`, which is answered as DRF does) to
   * Express's error handling with `next(err)`. `false` answers the JSON 500
   * `{"detail": "A server error occurred."}` and reports the error through `onError`, as the
   * other bindings do.
   * @default true
   */
  readonly forwardErrors?: boolean;
}

/** An Express request as the per-route handler reads it: a Node request with Express's `params`. */
export interface ExpressRequestLike extends NodeRequestLike {
  /** The path parameters Express's router matched (`/articles/:id` gives `{ id }`). */
  readonly params?: unknown;
}

/** Express's `next`: no argument goes on, an error goes to the error middleware. */
export type ExpressNext = (error?: unknown) => void;

/**
 * Express middleware serving a route table. Routes match the full path (`originalUrl`), so
 * mounting it under a prefix does not change the patterns. A path with no route goes on to the
 * app's later routes and unexpected errors go to `next(err)`, unless told otherwise.
 *
 * @example
 * const app = express();
 * app.use(createExpressMiddleware({ routes }));
 * app.get('/health', (req, res) => res.json({ ok: true })); // still reached
 */
export function createExpressMiddleware(
  options: ExpressMiddlewareOptions,
): (req: NodeRequestLike, res: NodeResponseLike, next: ExpressNext) => void {
  const mode = { fallthrough: options.fallthrough ?? true, forwardErrors: options.forwardErrors ?? true };
  return (req, res, next) => {
    answerRequest((init) => ApiRequest.fromNode(req, init), options, mode)
      .then((response) => {
        if (response === null) next();
        else writeNodeResponse(res, response, (req.method ?? 'GET').toUpperCase());
      })
      .catch(next);
  };
}

/**
 * One Pagewise handler (a `ListView.asView()`, a viewset's `asView({ get: 'list' })`, an
 * `apiView`, any `(request) => ...`) as an ordinary Express route handler. Path parameters come
 * from `req.params`, the links' origin from the trusted `Host` as in every binding. An `ApiError`
 * is answered as DRF does (`404 {"detail": "Invalid cursor"}`); any other error goes to `next(err)`.
 * Mount it with `app.all` (or `router.route(path).all`) to let the view answer `OPTIONS` and 405s;
 * `app.get` serves `GET` and `HEAD` only.
 *
 * @example
 * app.get('/:version/articles/', toExpressHandler(ArticleList, { routes }));
 * app.all('/:version/articles/:id/', toExpressHandler(ArticleDetail, { routes }));
 */
export function toExpressHandler(
  handler: RouteHandler,
  options: RouteHandlerOptions = {},
): (req: ExpressRequestLike, res: NodeResponseLike, next: ExpressNext) => void {
  return (req, res, next) => {
    answerRoute(
      (init) => ApiRequest.fromNode(req, init),
      handler,
      () => routeParams(req.params),
      options,
    )
      .then((response) => writeNodeResponse(res, response, (req.method ?? 'GET').toUpperCase()))
      .catch(next);
  };
}
