import { ApiRequest } from '../request/api-request.js';
import { answerRequest, type BindingOptions } from './binding.js';

export type { BindingOptions };

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
