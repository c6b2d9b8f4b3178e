// Every framework binding, for the root entry point. Each binding is also its own entry point
// (`@pagewise/core/fetch`, `/hono`, `/node`, `/express`, `/fastify`: see package.json).
export {
  type AnswerRequestMode,
  answerRequest,
  answerRoute,
  type BindingOptions,
  headerRecord,
  type RouteHandlerOptions,
  routeParams,
  SERVER_ERROR_DETAIL,
} from './binding.js';
export {
  createExpressMiddleware,
  type ExpressMiddlewareOptions,
  type ExpressNext,
  type ExpressRequestLike,
  toExpressHandler,
} from './express-middleware.js';
export {
  createFastifyHandler,
  createFastifyPlugin,
  type FastifyInstanceLike,
  type FastifyReplyLike,
  type FastifyRequestLike,
  toFastifyHandler,
} from './fastify-plugin.js';
export { createFetchHandler, toFetchHandler } from './fetch-handler.js';
export {
  createHonoHandler,
  type HonoContextLike,
  type HonoHandlerOptions,
  type HonoNext,
  type HonoRouteContextLike,
  toHonoHandler,
} from './hono-handler.js';
export {
  createNodeHandler,
  type NodeResponseLike,
  type NodeRouteHandlerOptions,
  toNodeHandler,
  writeNodeResponse,
} from './node-handler.js';
