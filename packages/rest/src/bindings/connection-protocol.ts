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
