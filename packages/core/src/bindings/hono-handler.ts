import type { BindingOptions } from './binding.js';
import { createFetchHandler } from './fetch-handler.js';

export type { BindingOptions };

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
