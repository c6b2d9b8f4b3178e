import { ApiError } from '@pagewise/core';

/**
 * The largest body a view reads by default, 1 MiB (Django's `DATA_UPLOAD_MAX_MEMORY_SIZE` is 2.5 MB).
 * @example readRequestData(request, DEFAULT_MAX_BODY_BYTES)
 */
export const DEFAULT_MAX_BODY_BYTES = 1_048_576;

/**
 * 413 for a body larger than a view accepts.
 * @example throw new PayloadTooLarge(1_048_576);
 */
export class PayloadTooLarge extends ApiError {
  constructor(maxBytes: number) {
    super(`Request body exceeds ${maxBytes} bytes.`, { status: 413, code: 'payload_too_large' });
  }
}

/**
 * 400 for a body whose client went away before sending all of it.
 * @example throw new IncompleteBody();
 */
export class IncompleteBody extends ApiError {
  constructor() {
    super('The request body ended before it was complete.', { status: 400, code: 'incomplete_body' });
  }
}

/** Decodes chunks as UTF-8 and counts their bytes, refusing the chunk that goes past `maxBytes`. */
class CappedText {
  readonly #decoder = new TextDecoder();
  #text = '';
  #bytes = 0;

  constructor(readonly maxBytes: number) {}

  /** Adds a chunk; `false` (nothing kept) once the body goes past the cap. */
  add(chunk: unknown): boolean {
    const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : (chunk as Uint8Array);
    this.#bytes += bytes.byteLength;
    if (this.#bytes > this.maxBytes) return false;
    this.#text += this.#decoder.decode(bytes, { stream: true });
    return true;
  }

  end(): string {
    return this.#text + this.#decoder.decode();
  }
}

/**
 * A Web `Request`'s body as text, read chunk by chunk and refused with `PayloadTooLarge` as soon as
 * it goes past `maxBytes`, so a chunked body of any length holds at most the cap in memory. What
 * is left is read and dropped beside the answer (cancelling the stream would close the connection
 * before the 413 is written, and leaving it unread would stall the connection).
 *
 * @example
 * const text = await readFetchBody(request, 1_048_576);
 */
export async function readFetchBody(request: Request, maxBytes = Number.POSITIVE_INFINITY): Promise<string> {
  if (request.body === null) return '';
  if (!Number.isFinite(maxBytes)) return request.text();
  const reader = request.body.getReader();
  const text = new CappedText(maxBytes);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text.end();
    if (!text.add(value)) {
      void discardRest(reader);
      throw new PayloadTooLarge(maxBytes);
    }
  }
}

/** How much of a refused body is read and dropped before the stream is cancelled instead. */
const DISCARD_LIMIT = 8 * 1024 * 1024;

/**
 * Reads what is left of a body and drops it, beside the 413: the connection is then free for the
 * client's next request, as Node's own server leaves it once a request stream flows to no one.
 * Bounded: past `DISCARD_LIMIT` more bytes (a body that never ends) the stream is cancelled, which
 * closes the connection rather than reading on. A runtime that refuses reads after the answer ends
 * it here, which is as good.
 */
async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  let dropped = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      dropped += value.byteLength;
      if (dropped > DISCARD_LIMIT) {
        await reader.cancel();
        return;
      }
    }
  } catch {
    // The client went away, or the runtime closed the stream: nothing left to drop.
  }
}

/** The parts of a Node `Readable` (an `IncomingMessage`) the capped reader uses. */
interface NodeReadable {
  on(event: 'data', listener: (chunk: unknown) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  removeListener(event: string, listener: (...args: never[]) => void): unknown;
  resume?(): unknown;
  readonly readableEnded?: boolean;
}

function isNodeReadable(stream: unknown): stream is NodeReadable {
  const candidate = stream as Partial<NodeReadable> | null;
  return typeof candidate?.on === 'function' && typeof candidate.removeListener === 'function';
}

/**
 * A Node request stream's body as text, refused with `PayloadTooLarge` as soon as it goes past
 * `maxBytes`. The rest is then discarded as it arrives (the stream keeps flowing to no listener):
 * destroying it would close the socket the 413 goes out on, and leaving it paused would stall the
 * connection for the next request.
 *
 * @example
 * http.createServer(async (req, res) => res.end(await readNodeBody(req, 1_048_576)));
 */
export function readNodeBody(stream: unknown, maxBytes = Number.POSITIVE_INFINITY): Promise<string> {
  if (!isNodeReadable(stream)) return readIterable(stream as AsyncIterable<unknown>, maxBytes);
  // Read already (by a parser before the view): nothing more will come.
  if (stream.readableEnded === true) return Promise.resolve('');
  return new Promise((resolve, reject) => {
    const text = new CappedText(maxBytes);
    const detach = () => {
      stream.removeListener('data', onData);
      stream.removeListener('end', onEnd);
      stream.removeListener('close', onClose);
      stream.removeListener('error', onError);
    };
    const onData = (chunk: unknown) => {
      if (text.add(chunk)) return;
      detach();
      // Flowing with no `data` listener: the bytes are dropped as they are read.
      stream.resume?.();
      reject(new PayloadTooLarge(maxBytes));
    };
    const onEnd = () => {
      detach();
      resolve(text.end());
    };
    // A client gone before the end: a truncated body is no body (it might still parse).
    const onClose = () => {
      detach();
      reject(new IncompleteBody());
    };
    const onError = (error: unknown) => {
      detach();
      reject(error);
    };
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('close', onClose);
    stream.on('error', onError);
  });
}

async function readIterable(stream: AsyncIterable<unknown>, maxBytes: number): Promise<string> {
  const text = new CappedText(maxBytes);
  for await (const chunk of stream) {
    if (!text.add(chunk)) throw new PayloadTooLarge(maxBytes);
  }
  return text.end();
}
