import { ApiRequest } from '../request/api-request.js';
import { answerRequest, type BindingOptions } from './binding.js';

export type { BindingOptions };

/**
 * The connection's scheme when the runtime hands over its Node socket (`@hono/node-server` passes
 * `{ incoming }` as the second argument of `fetch`, which Hono exposes as `c.env`). There,
 * `request.url` is the absolute-form target verbatim, so its scheme is the client's word.
 */
function connectionProtocol(env: unknown): 'http' | 'https' | undefined {
  const incoming = (env as { incoming?: { socket?: { encrypted?: unknown } | null } } | null | undefined)
    ?.incoming;
  if (incoming?.socket == null) return undefined;
  return incoming.socket.encrypted === true ? 'https' : 'http';
}

/**
 * A Fetch API handler (`Request` in, `Response` out) serving a route table: Hono, Deno, Bun,
 * workers. The scheme of links is the connection's: the Node socket when the runtime passes it
 * (`@hono/node-server`), otherwise the scheme of `request.url`; `X-Forwarded-Proto` only with
 * `trustProxy`.
 *
 * @example
 * Deno.serve(createFetchHandler({ routes, allowedHosts: ['api.example.org'] }));
 */
export function createFetchHandler(
  options: BindingOptions,
): (request: Request, env?: unknown) => Promise<Response> {
  return async (request, env) => {
    const protocol = connectionProtocol(env);
    const response = await answerRequest(
      (init) => ApiRequest.fromFetch(request, protocol === undefined ? init : { ...init, protocol }),
      options,
    );
    return response!.toFetchResponse(request.method);
  };
}
