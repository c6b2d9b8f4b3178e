import { Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { relay } from './wire-replay.js';

/**
 * A socket for mysql2 (its `stream` option) that answers from a tape what MySQL or MariaDB
 * answered before: each command (a client packet with sequence id 0: COM_QUERY, COM_STMT_PREPARE,
 * COM_STMT_EXECUTE, ...) is sent to the server the first time and its answer recorded; the same
 * bytes again are answered from the tape on the next turn of the event loop, without a round trip.
 * So mysql2's own work (writing packets, parsing rows, type casts) is measured without the
 * server's time or the network's. The handshake always goes to the server.
 *
 *   createPool({ uri, stream: () => new MysqlWireReplay(new Map()) })
 *
 * Keep one tape per connection when statements are prepared: statement ids are the server's, per
 * connection.
 */
export class MysqlWireReplay extends Duplex {
  readonly #socket = new Socket();
  readonly #tape: Map<string, Buffer>;
  #pendingWrite: Buffer = Buffer.alloc(0);
  /** The command being answered by the server, and the answer so far. */
  #recording: { key: string; answer: Buffer[]; reader: AnswerReader } | undefined;
  #pendingRead: Buffer = Buffer.alloc(0);
  /** Commands answered from the tape; commands sent to the server. */
  replayed = 0;
  recorded = 0;

  constructor(tape: Map<string, Buffer>, port = 3306, host = '127.0.0.1') {
    super();
    this.#tape = tape;
    relay(this.#socket, this, (chunk) => this.#received(chunk));
    this.#socket.setNoDelay(true);
    this.#socket.connect(port, host);
  }

  override _read(): void {}

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.#pendingWrite = this.#pendingWrite.length === 0 ? chunk : Buffer.concat([this.#pendingWrite, chunk]);
    while (this.#pendingWrite.length >= 4) {
      const length = this.#pendingWrite.readUIntLE(0, 3);
      if (this.#pendingWrite.length < 4 + length) break;
      const packet = this.#pendingWrite.subarray(0, 4 + length);
      this.#pendingWrite = this.#pendingWrite.subarray(4 + length);
      this.#command(packet);
    }
    done();
  }

  #command(packet: Buffer): void {
    const sequence = packet[3];
    const command = packet[4];
    // Handshake packets, COM_QUIT (0x01) and COM_STMT_CLOSE (0x19, no answer) go straight through.
    if (sequence !== 0 || command === 0x01 || command === 0x19) {
      this.#socket.write(packet);
      return;
    }
    const key = packet.toString('latin1');
    const answer = this.#tape.get(key);
    if (answer !== undefined) {
      this.replayed += 1;
      setImmediate(() => this.push(answer));
      return;
    }
    if (this.#recording !== undefined) throw new Error('MysqlWireReplay: a command while one is answered');
    this.recorded += 1;
    this.#recording = { key, answer: [], reader: new AnswerReader(command === 0x16) };
    this.#socket.write(packet);
  }

  #received(chunk: Buffer): void {
    const recording = this.#recording;
    if (recording === undefined) {
      this.push(chunk);
      return;
    }
    this.#pendingRead = this.#pendingRead.length === 0 ? chunk : Buffer.concat([this.#pendingRead, chunk]);
    let done = false;
    while (!done && this.#pendingRead.length >= 4) {
      const length = this.#pendingRead.readUIntLE(0, 3);
      if (this.#pendingRead.length < 4 + length) break;
      const packet = this.#pendingRead.subarray(0, 4 + length);
      this.#pendingRead = this.#pendingRead.subarray(4 + length);
      recording.answer.push(packet);
      done = recording.reader.ended(packet.subarray(4));
    }
    if (done) {
      const answer = Buffer.concat(recording.answer);
      this.#tape.set(recording.key, answer);
      this.#recording = undefined;
      const rest = this.#pendingRead;
      this.#pendingRead = Buffer.alloc(0);
      this.push(answer);
      if (rest.length > 0) this.push(rest);
    }
  }

  override _final(done: (error?: Error | null) => void): void {
    this.#socket.end(done);
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    this.#socket.destroy();
    done(error);
  }
}

/** Follows one answer packet by packet (the classic protocol, with EOF packets): has it ended? */
class AnswerReader {
  /** What comes next: the first packet, column definitions, rows, or prepared-statement parts. */
  #state: 'first' | 'columns' | 'rows' | 'prepared' = 'first';
  #left = 0;
  /** Prepared statement: EOF-terminated blocks still to come (parameters, columns). */
  #blocks: number[] = [];
  readonly #prepare: boolean;

  constructor(prepare: boolean) {
    this.#prepare = prepare;
  }

  ended(payload: Buffer): boolean {
    const eof = payload[0] === 0xfe && payload.length < 9;
    switch (this.#state) {
      case 'first': {
        if (payload[0] === 0xff) return true;
        if (this.#prepare && payload[0] === 0x00) {
          const columns = payload.readUInt16LE(5);
          const params = payload.readUInt16LE(7);
          this.#blocks = [params, columns].filter((n) => n > 0);
          return this.#nextBlock();
        }
        if (payload[0] === 0x00) return !moreResults(payload, false);
        this.#left = lengthEncoded(payload);
        this.#state = 'columns';
        return false;
      }
      case 'prepared':
        if (this.#left > 0) {
          this.#left -= 1;
          return false;
        }
        // The EOF after a block.
        return this.#nextBlock();
      case 'columns':
        if (this.#left > 0) {
          this.#left -= 1;
          return false;
        }
        this.#state = 'rows';
        return false;
      case 'rows':
        if (payload[0] === 0xff) return true;
        if (!eof) return false;
        if (moreResults(payload, true)) {
          this.#state = 'first';
          return false;
        }
        return true;
    }
  }

  #nextBlock(): boolean {
    const next = this.#blocks.shift();
    if (next === undefined) return true;
    this.#left = next;
    this.#state = 'prepared';
    return false;
  }
}

/** The first length-encoded integer of a packet (a column count). */
function lengthEncoded(payload: Buffer): number {
  const first = payload[0]!;
  if (first < 0xfb) return first;
  if (first === 0xfc) return payload.readUInt16LE(1);
  if (first === 0xfd) return payload.readUIntLE(1, 3);
  return Number(payload.readBigUInt64LE(1));
}

/** SERVER_MORE_RESULTS_EXISTS in an OK or EOF packet's status flags. */
function moreResults(payload: Buffer, eof: boolean): boolean {
  if (eof) return (payload.readUInt16LE(3) & 0x0008) !== 0;
  // OK: header, affected rows and last insert id (length-encoded), then the status.
  let at = 1;
  for (let i = 0; i < 2; i += 1) {
    const first = payload[at]!;
    at += first < 0xfb ? 1 : first === 0xfc ? 3 : first === 0xfd ? 4 : 9;
  }
  return (payload.readUInt16LE(at) & 0x0008) !== 0;
}
