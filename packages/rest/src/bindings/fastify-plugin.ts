import { ApiRequest, type FromHttpInit, type NodeRequestLike } from '../request/api-request.js';
import { type ApiResponse, toWire } from '../request/api-response.js';
import type { RouteHandler } from '../routes/routes.js';
import {
  answerRequest,
  answerRoute,
  type BindingOptions,
  headerRecord,
  type RouteHandlerOptions,
  routeParams,
} from './binding.js';

export type { BindingOptions, NodeRequestLike, RouteHandlerOptions };

/**
 * The parts of a Fastify request the handler reads.
 *
 * @example
 * createFastifyHandler({ routes })(request, reply)
 */
export interface FastifyRequestLike {
  readonly raw: NodeRequestLike;
  /** What Fastify's content-type parser made of the body (it consumed the stream). */
  readonly body?: unknown;
  /** The path parameters Fastify's router matched (read by `toFastifyHandler`). */
  readonly params?: unknown;
}

/**
 * The parts of a Fastify reply the handler uses.
 *
 * @example
 * createFastifyHandler({ routes })(request, reply)
 */
export interface FastifyReplyLike {
  code(status: number): unknown;
  headers(values: Record<string, string | string[]>): unknown;
  send(payload?: string | Uint8Array): unknown;
}

/**
 * The part of a Fastify instance the plugin uses.
 *
 * @example
 * await fastify.register(createFastifyPlugin({ routes }));
 */
export interface FastifyInstanceLike {
  all(
    path: string,
    handler: (request: FastifyRequestLike, reply: FastifyReplyLike) => Promise<unknown>,
  ): unknown;
}

/**
 * A Fastify route handler serving a route table (from `request.raw`, answered with `reply`).
 *
 * @example
 * fastify.all('/api/*', createFastifyHandler({ routes }));
 */
export function createFastifyHandler(
  options: BindingOptions,
): (request: FastifyRequestLike, reply: FastifyReplyLike) => Promise<FastifyReplyLike> {
  return async (request, reply) => {
    const response = await answerRequest((init) => fromFastify(request, init), options);
    return sendReply(request, reply, response!);
  };
}

/**
 * One Pagewise handler (a `ListView.asView()`, a viewset's `asView({ get: 'list' })`, an
 * `apiView`, any `(request) => ...`) as an ordinary Fastify route handler: path parameters come
 * from `request.params`, the body from Fastify's parser, the links' origin from the trusted
 * `Host` as in every binding. An `ApiError` is answered as DRF does; any other error is thrown to
 * the app's error handler (`setErrorHandler`). Fastify answers `HEAD` for `GET` routes itself;
 * mount with `fastify.all` to let the view answer `OPTIONS` and 405s.
 *
 * @example
 * fastify.get('/:version/articles/', toFastifyHandler(ArticleList, { routes }));
 */
export function toFastifyHandler(
  handler: RouteHandler,
  options: RouteHandlerOptions = {},
): (request: FastifyRequestLike, reply: FastifyReplyLike) => Promise<FastifyReplyLike> {
  return async (request, reply) => {
    const response = await answerRoute(
      (init) => fromFastify(request, init),
      handler,
      () => routeParams(request.params),
      options,
    );
    return sendReply(request, reply, response);
  };
}

/** The request from Fastify's raw one, with the body its content-type parser already read. */
function fromFastify(request: FastifyRequestLike, init: FromHttpInit): ApiRequest {
  const body = request.body;
  return ApiRequest.fromNode(
    request.raw,
    body === undefined ? init : { ...init, body: typeof body === 'string' ? body : JSON.stringify(body) },
  );
}

function sendReply(
  request: FastifyRequestLike,
  reply: FastifyReplyLike,
  response: ApiResponse,
): FastifyReplyLike {
  const wire = toWire(response, (request.raw.method ?? 'GET').toUpperCase());
  reply.code(wire.status);
  reply.headers(headerRecord(wire.headers));
  const body = wire.body ?? '';
  // Nothing to send and no Content-Type: Fastify would call even empty bytes octet-stream.
  if (body === '' && !wire.headers.has('content-type')) reply.send();
  // Bytes, not a string: Fastify would append `; charset=utf-8` to a string's Content-Type.
  else reply.send(new TextEncoder().encode(body));
  return reply;
}

/**
 * A Fastify plugin mounting a route table on every path of its context. It needs no fallthrough:
 * Fastify's router prefers the app's own static and parametric routes to the plugin's `*`,
 * whatever the order of registration, so only paths nobody routes get Pagewise's 404.
 *
 * @example
 * await fastify.register(createFastifyPlugin({ routes }));
 */
export function createFastifyPlugin(
  options: BindingOptions,
): (fastify: FastifyInstanceLike) => Promise<void> {
  const handler = createFastifyHandler(options);
  return async (fastify) => {
    fastify.all('*', handler);
  };
}
