import { ApiRequest, type NodeRequestLike } from '../request/api-request.js';
import { toWire } from '../request/api-response.js';
import { answerRequest, type BindingOptions, headerRecord } from './binding.js';

export type { BindingOptions, NodeRequestLike };

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
    const body = request.body;
    const response = await answerRequest(
      (init) =>
        ApiRequest.fromNode(
          request.raw,
          body === undefined
            ? init
            : { ...init, body: typeof body === 'string' ? body : JSON.stringify(body) },
        ),
      options,
    );
    const wire = toWire(response!, (request.raw.method ?? 'GET').toUpperCase());
    reply.code(wire.status);
    reply.headers(headerRecord(wire.headers));
    // Bytes, not a string: Fastify would append `; charset=utf-8` to a string's Content-Type.
    reply.send(new TextEncoder().encode(wire.body ?? ''));
    return reply;
  };
}

/**
 * A Fastify plugin mounting a route table on every path of its context.
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
