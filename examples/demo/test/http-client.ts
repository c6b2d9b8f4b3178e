import { Agent, request } from 'node:http';

/** One raw answer: status, headers and body text. */
export interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/**
 * How long a pooled socket may stay idle before the client closes it: well under the servers'
 * `keepAliveTimeout` (Node's default, 5 s, which the demo and the test harness keep). Without
 * it, Node's Agent keeps idle sockets forever (it ignores the server's `Keep-Alive: timeout=5`
 * hint unless given a timeout), the server closes them at 5 s, and a request sent on one at that
 * instant fails with `socket hang up` / `read ECONNRESET`: the keep-alive race, frequent under
 * load because the LIFO pool leaves its deeper sockets idle across many batches. Closing first on
 * the client side removes the race instead of retrying around it; the server and the client
 * share one process here, so the client's earlier timer always fires first.
 */
export const CLIENT_IDLE_TIMEOUT_MS = 1000;

const agent = new Agent({ keepAlive: true, maxSockets: 32, timeout: CLIENT_IDLE_TIMEOUT_MS });

/**
 * A GET over node:http, so the test controls the raw path (malformed percent-encoding
 * included) and the `Host` header, which `fetch` would normalise or refuse.
 */
export function rawGet(port: number, path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', reject);
    });
    req.setTimeout(10_000, () => req.destroy(new Error(`timeout: GET ${path}`)));
    req.on('error', reject);
    req.end();
  });
}
