// Internal to the Fetch-based bindings; not on any entry point.

/**
 * The connection's scheme when the runtime hands over its Node socket (`@hono/node-server` passes
 * `{ incoming }` as the second argument of `fetch`, which Hono exposes as `c.env`). There,
 * `request.url` is the absolute-form target verbatim, so its scheme is the client's word.

 */
export function connectionProtocol(env: unknown): 'http' | 'https' | undefined {
  const incoming = (env as { incoming?: { socket?: { encrypted?: unknown } | null } } | null | undefined)
    ?.incoming;
  if (incoming?.socket == null) return undefined;
  return incoming.socket.encrypted === true ? 'https' : 'http';
}

/**
 * The `Host` the connection received when the runtime hands over its Node request (HTTP/2's
 * `:authority` there): `null` when the client named none, `undefined` when there is no Node
 * request to read (`request.url`'s host is then the runtime's word for it). `@hono/node-server`
 * builds `request.url` from its own hostname when `Host` is missing, and drops the port.
 */
export function connectionHost(env: unknown): string | null | undefined {
  const incoming = (
    env as { incoming?: { headers?: Record<string, unknown>; authority?: unknown } | null } | null | undefined
  )?.incoming;
  if (incoming?.headers == null) return undefined;
  const host = incoming.headers.host ?? incoming.headers[':authority'] ?? incoming.authority;
  return typeof host === 'string' && host !== '' ? host : null;
}

/** What the Fetch bindings add to `fromFetch`'s init from the runtime's second argument. */
export function connectionInit<Init extends object>(
  init: Init,
  env: unknown,
): Init & { protocol?: 'http' | 'https'; host?: string | null } {
  const protocol = connectionProtocol(env);
  const host = connectionHost(env);
  if (protocol === undefined && host === undefined) return init;
  return {
    ...init,
    ...(protocol !== undefined ? { protocol } : {}),
    ...(host !== undefined ? { host } : {}),
  };
}
