import { ApiRequest } from '../request/api-request.js';
import { answerRequest, type BindingOptions } from './binding.js';

/**
 * A Fetch API handler (`Request` in, `Response` out) serving a route table: Hono, Deno, Bun,
 * workers.
 *
 * @example
 * Deno.serve(createFetchHandler({ routes, allowedHosts: ['api.example.org'] }));
 */
export function createFetchHandler(options: BindingOptions): (request: Request) => Promise<Response> {
  return async (request) => {
    const response = await answerRequest((init) => ApiRequest.fromFetch(request, init), options);
    return response!.toFetchResponse(request.method);
  };
}

/**
 * The part of a Hono `Context` the handler reads.
 *
 * @example
 * app.all('*', createHonoHandler({ routes }));
 */
export interface HonoContextLike {
  readonly req: { readonly raw: Request };
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
  return (c) => handle(c.req.raw);
}
