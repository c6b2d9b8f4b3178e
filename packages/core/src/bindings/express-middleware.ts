import { ApiRequest, type NodeRequestLike } from '../request/api-request.js';
import { answerRequest, type BindingOptions } from './binding.js';
import { type NodeResponseLike, writeNodeResponse } from './node-handler.js';

export type { BindingOptions, NodeRequestLike, NodeResponseLike };

/**
 * Options of the Express middleware.
 *
 * @example
 * app.use(createExpressMiddleware({ routes, fallthrough: true }));
 */
export interface ExpressMiddlewareOptions extends BindingOptions {
  /**
   * Pass requests no route matches on to the next middleware instead of answering 404.
   * @default false
   */
  readonly fallthrough?: boolean;
}

/**
 * Express middleware serving a route table. Routes match the full path (`originalUrl`), so
 * mounting it under a prefix does not change the patterns.
 *
 * @example
 * const app = express();
 * app.use(createExpressMiddleware({ routes }));
 */
export function createExpressMiddleware(
  options: ExpressMiddlewareOptions,
): (req: NodeRequestLike, res: NodeResponseLike, next: (error?: unknown) => void) => void {
  return (req, res, next) => {
    answerRequest((init) => ApiRequest.fromNode(req, init), options, {
      fallthrough: options.fallthrough ?? false,
    })
      .then((response) => {
        if (response === null) next();
        else writeNodeResponse(res, response, (req.method ?? 'GET').toUpperCase());
      })
      .catch(next);
  };
}
