import { ApiRequest, type NodeRequestLike, type RouteParams } from '../request/api-request.js';
import { ApiResponse, toWire } from '../request/api-response.js';
import { type RouteHandler, Routes } from '../routes/routes.js';
import {
  answerRequest,
  answerRoute,
  type BindingOptions,
  headerRecord,
  type RouteHandlerOptions,
  SERVER_ERROR_DETAIL,
} from './binding.js';

export type { BindingOptions, NodeRequestLike, RouteHandlerOptions, RouteParams };

/**
 * The parts of a Node `ServerResponse` the bindings use.
 *
 * @example
 * http.createServer((req, res) => writeNodeResponse(res, new ApiResponse({ ok: true }), 'GET'));
 */
export interface NodeResponseLike {
  writeHead(status: number, headers: Record<string, string | string[]>): unknown;
  end(body?: string): unknown;
}

/**
 * Writes an answer to a Node response.
 *
 * @example
 * writeNodeResponse(res, new ApiResponse({ detail: 'Not found.' }, { status: 404 }), req.method);
 */
export function writeNodeResponse(res: NodeResponseLike, response: ApiResponse, method: string): void {
  const wire = toWire(response, method);
  res.writeHead(wire.status, headerRecord(wire.headers));
  if (wire.body === null) res.end();
  else res.end(wire.body);
}

/**
 * A `node:http` request listener serving a route table. It is the whole server, with nothing to
 * fall through to: paths no route matches get `404 {"detail": "Not found."}`.
 *
 * @example
 * http.createServer(createNodeHandler({ routes })).listen(3000);
 */
export function createNodeHandler(
  options: BindingOptions,
): (req: NodeRequestLike, res: NodeResponseLike) => Promise<void> {
  return async (req, res) => {
    const response = await answerRequest((init) => ApiRequest.fromNode(req, init), options);
    writeNodeResponse(res, response!, (req.method ?? 'GET').toUpperCase());
  };
}

/**
 * Options of `toNodeHandler`: the per-route options, a pattern to read path parameters with, and
 * the error report.
 *
 * @example
 * toNodeHandler(ArticleDetail, { pattern: '/articles/:id/', routes })
 */
export interface NodeRouteHandlerOptions extends RouteHandlerOptions {
  /**
   * A route pattern in `Routes` syntax (`/articles/:id(\\d+)/`) the path must match; its
   * parameters become `request.params` and any other path answers 404 `Not found.`. Parameters
   * passed to the handler win over it.
   * @default undefined (no parameters unless passed)
   */
  readonly pattern?: string;
  /**
   * Told about errors that are not `ApiError`s before the 500 answer goes out (node:http has no
   * error handler to pass them to).
   * @default logs with console.error
   */
  readonly onError?: (error: unknown) => void;
}

/**
 * One Pagewise handler as a `node:http` request handler for your own dispatch: path parameters
 * come from the third argument (your router's), else from `pattern`. An `ApiError` is answered as
 * DRF does; any other error is reported through `onError` and answered with the JSON 500.
 *
 * @example
 * const detail = toNodeHandler(ArticleDetail, { pattern: '/articles/:id/' });
 * http.createServer((req, res) => detail(req, res));
 */
export function toNodeHandler(
  handler: RouteHandler,
  options: NodeRouteHandlerOptions = {},
): (req: NodeRequestLike, res: NodeResponseLike, params?: RouteParams) => Promise<void> {
  const matcher = options.pattern === undefined ? null : new Routes().add(options.pattern, null, handler);
  return async (req, res, params) => {
    const method = (req.method ?? 'GET').toUpperCase();
    let response: ApiResponse;
    try {
      response = await answerRoute(
        (init) => ApiRequest.fromNode(req, init),
        handler,
        (request) =>
          params ?? (matcher === null ? {} : (matcher.match(request.url.pathname)?.params ?? null)),
        options,
      );
    } catch (error) {
      if (options.onError) options.onError(error);
      else console.error(`pagewise: ${method} ${req.url ?? ''} failed:`, error);
      response = new ApiResponse({ detail: SERVER_ERROR_DETAIL }, { status: 500 });
    }
    writeNodeResponse(res, response, method);
  };
}
