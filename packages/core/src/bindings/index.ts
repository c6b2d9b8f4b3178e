// Every framework binding, for the root entry point. Each binding is also its own entry point
// (`@pagewise/core/fetch`, `/hono`, `/node`, `/express`, `/fastify`: see package.json).
export { answerRequest, type BindingOptions, headerRecord, SERVER_ERROR_DETAIL } from './binding.js';
export { createExpressMiddleware, type ExpressMiddlewareOptions } from './express-middleware.js';
export {
  createFastifyHandler,
  createFastifyPlugin,
  type FastifyInstanceLike,
  type FastifyReplyLike,
  type FastifyRequestLike,
} from './fastify-plugin.js';
export { createFetchHandler } from './fetch-handler.js';
export { createHonoHandler, type HonoContextLike } from './hono-handler.js';
export { createNodeHandler, type NodeResponseLike, writeNodeResponse } from './node-handler.js';
