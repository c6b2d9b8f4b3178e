// Requests written byte by byte on a TCP socket, for what fetch and node:http's client never send:
// an HTTP/1.0 request without Host, a chunked body that never ends.
import net from 'node:net';

/** The first answer a server writes on a socket: its status line's code, headers and body so far. */
export interface RawAnswer {
  readonly status: number;
  readonly head: string;
  readonly body: string;
}

function parse(text: string): RawAnswer | null {
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) return null;
  const head = text.slice(0, end);
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
  return { status, head, body: text.slice(end + 4) };
}

/**
 * Writes `request` (the head and, when given, `body` chunks written as the socket drains them),
 * and resolves with the answer once the server closes or `settle` ms pass after its head arrived.
 * Rejects when nothing arrives within `timeout` ms.
 */
export function rawRequest(
  port: number,
  request: string,
  {
    body,
    timeout = 5000,
    settle = 200,
  }: { body?: AsyncIterable<Uint8Array | string>; timeout?: number; settle?: number } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    let done = false;
    const finish = (error: Error | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const answer = parse(received);
      if (error !== null || answer === null)
        reject(error ?? new Error(`no answer: ${JSON.stringify(received)}`));
      else resolve(answer);
    };
    const timer = setTimeout(
      () => finish(new Error(`no answer within ${timeout} ms (received ${JSON.stringify(received)})`)),
      timeout,
    );
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      if (parse(received) !== null) setTimeout(() => finish(null), settle);
    });
    socket.on('close', () => finish(parse(received) === null ? new Error('closed without an answer') : null));
    socket.on('error', () => {
      // A server that stops reading may reset the connection once it answered: the answer counts.
      if (parse(received) !== null) finish(null);
    });
    socket.write(request);
    if (body !== undefined) {
      void (async () => {
        for await (const chunk of body) {
          if (done || socket.destroyed) return;
          if (!socket.write(chunk)) await new Promise((drained) => socket.once('drain', drained));
        }
      })().catch(() => undefined);
    }
  });
}

/** `total` bytes of chunked transfer coding in 64 KiB chunks, never terminated (no `0\r\n\r\n`). */
export async function* unterminatedChunks(total: number): AsyncGenerator<Uint8Array> {
  const size = 64 * 1024;
  const payload = new Uint8Array(size).fill(0x20); // spaces: valid JSON whitespace
  const header = new TextEncoder().encode(`${size.toString(16)}\r\n`);
  const crlf = new TextEncoder().encode('\r\n');
  for (let sent = 0; sent < total; sent += size) {
    yield header;
    yield payload;
    yield crlf;
  }
}
