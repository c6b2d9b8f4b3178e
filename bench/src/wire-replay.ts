import { Socket } from 'node:net';
import { Duplex } from 'node:stream';

/**
 * A socket for `pg` (its `stream` option) that answers from a tape what Postgres answered before:
 * each request (the client's messages up to a Sync or a simple Query) is sent to the server the
 * first time and its answer (up to ReadyForQuery) recorded; the same bytes again are answered from
 * the tape on the next turn of the event loop, without a round trip. So `pg`'s own work (writing
 * messages, parsing answers, type parsers) is measured without the server's time or the network's.
 *
 *   new pg.Pool({ connectionString, stream: () => new WireReplay(tape) })
 */
export class WireReplay extends Duplex {
  readonly #socket = new Socket();
  readonly #tape: Map<string, Buffer>;
  /** Messages written since the last Sync or Query, not yet sent. */
  #request: Buffer[] = [];
  #pendingWrite: Buffer = Buffer.alloc(0);
  /** The request being answered by the server, and its answer so far. */
  #recording: string | undefined;
  #answer: Buffer[] = [];
  #pendingRead: Buffer = Buffer.alloc(0);
  /** Replay starts once the session is set up (the first ReadyForQuery). */
  #ready = false;

  constructor(tape: Map<string, Buffer>) {
    super();
    this.#tape = tape;
    relay(this.#socket, this, (chunk) => this.#received(chunk));
  }

  connect(port: number, host: string): this {
    this.#socket.connect(port, host);
    return this;
  }
  setNoDelay(noDelay?: boolean): this {
    this.#socket.setNoDelay(noDelay);
    return this;
  }
  setKeepAlive(enable?: boolean, delay?: number): this {
    this.#socket.setKeepAlive(enable, delay);
    return this;
  }
  ref(): this {
    this.#socket.ref();
    return this;
  }
  unref(): this {
    this.#socket.unref();
    return this;
  }

  override _read(): void {}

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    if (!this.#ready) {
      this.#socket.write(chunk, done);
      return;
    }
    this.#request.push(chunk);
    this.#pendingWrite = Buffer.concat([this.#pendingWrite, chunk]);
    for (const type of frames(this.#pendingWrite, (rest) => (this.#pendingWrite = rest))) {
      if (type !== 0x53 /* Sync */ && type !== 0x51 /* Query */) continue;
      const bytes = Buffer.concat(this.#request);
      this.#request = [];
      const key = bytes.toString('latin1');
      const answer = this.#tape.get(key);
      if (answer !== undefined) {
        setImmediate(() => this.push(answer));
      } else {
        this.#recording = key;
        this.#answer = [];
        this.#socket.write(bytes);
      }
    }
    if (this.#pendingWrite.length === 0 && this.#request.length > 0 && this.#request.at(-1)?.[0] === 0x58) {
      // Terminate: nothing answers it.
      this.#socket.write(Buffer.concat(this.#request));
      this.#request = [];
    }
    done();
  }

  override _final(done: (error?: Error | null) => void): void {
    this.#socket.end(done);
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    this.#socket.destroy();
    done(error);
  }

  #received(chunk: Buffer): void {
    this.push(chunk);
    this.#pendingRead = Buffer.concat([this.#pendingRead, chunk]);
    if (this.#recording !== undefined) this.#answer.push(chunk);
    for (const type of frames(this.#pendingRead, (rest) => (this.#pendingRead = rest))) {
      if (type !== 0x5a /* ReadyForQuery */) continue;
      if (!this.#ready) {
        this.#ready = true;
      } else if (this.#recording !== undefined) {
        this.#tape.set(this.#recording, Buffer.concat(this.#answer));
        this.#recording = undefined;
      }
    }
  }
}

/** The types of the whole messages at the start of `buffer`; `keep` gets the incomplete rest. */
function frames(buffer: Buffer, keep: (rest: Buffer) => void): number[] {
  const types: number[] = [];
  let at = 0;
  while (buffer.length - at >= 5) {
    const length = buffer.readInt32BE(at + 1);
    if (buffer.length - at < length + 1) break;
    types.push(buffer[at]!);
    at += length + 1;
  }
  keep(buffer.subarray(at));
  return types;
}

/**
 * Wires the server's `socket` to the replaying `stream`: connect and close pass on, an error
 * destroys the stream, and what the server sends goes to `received`.
 */
export function relay(socket: Socket, stream: Duplex, received: (chunk: Buffer) => void): void {
  socket.on('connect', () => stream.emit('connect'));
  socket.on('error', (error) => stream.destroy(error));
  socket.on('close', () => stream.push(null));
  socket.on('data', received);
}
