import { EventEmitter } from 'node:events';
import { describe, expect, test } from 'vitest';
import { nameStatements } from './name-statements.js';
import type { PgPool as PostgresPool, PgPoolClient as PostgresPoolClient } from './pg-types.js';

// pg emits `error` on a checked-out client whose connection is cut (a pooler or server restart),
// besides failing its query; with no listener the event ends the process. nameStatements asks a
// new connection whether it talks to Postgres itself (one query) as it checks it out: a cut during
// that query must be heard too. Seen in tests/reliability/connection-poolers.test.ts as an
// uncaught "Connection terminated unexpectedly" in 1 of 10 runs of its PgBouncer restarts.

/** A pg-like client whose connection is cut while the first query runs. */
class CutClient extends EventEmitter {
  readonly processID = 4242;
  listenersWhileQuerying = -1;
  released: Error | undefined;
  async query(_text: unknown, _values: unknown): Promise<never> {
    this.listenersWhileQuerying = this.listenerCount('error');
    const error = new Error('Connection terminated unexpectedly');
    // As pg does: the client emits the error (which throws where nobody listens), and the query
    // fails with it.
    this.emit('error', error);
    throw error;
  }
  release(error?: Error): void {
    this.released = error;
  }
}

describe('nameStatements under a connection cut', () => {
  test('the check of a new connection listens for its error before it queries', async () => {
    const client = new CutClient();
    const pool = {
      connect: async () => client as unknown as PostgresPoolClient,
      end: async () => {},
    } as PostgresPool;
    await expect(nameStatements(pool).connect()).rejects.toThrow('Connection terminated unexpectedly');
    expect(client.listenersWhileQuerying).toBe(1);
    // The broken connection goes back to the pool as broken.
    expect(client.released?.message).toBe('Connection terminated unexpectedly');
  });
});

/** A pg-like client that talks to Postgres itself and keeps the configs it was sent. */
class KeepingClient extends EventEmitter {
  readonly processID = 7;
  readonly sent: Array<{
    name?: unknown;
    text?: unknown;
    rowMode?: unknown;
    types?: unknown;
    values?: unknown;
  }> = [];
  released: unknown[] = [];
  getTypeParser(): (text: string) => unknown {
    return (text) => text;
  }
  query(
    config: unknown,
    values: unknown,
    callback?: (error: Error | null, answer: unknown) => void,
  ): unknown {
    if (config === 'select pg_backend_pid() as pid') return Promise.resolve({ rows: [{ pid: 7 }] });
    const c = config as Record<string, unknown>;
    this.sent.push({ name: c.name, text: c.text, rowMode: c.rowMode, types: c.types, values });
    const answer = { command: 'SELECT', rowCount: 0, rows: [] };
    if (callback) {
      callback(null, answer);
      return undefined;
    }
    return Promise.resolve(answer);
  }
  release(error?: unknown): void {
    this.released.push(error);
  }
}

describe('nameStatements with query configs (Drizzle sends its statements so)', () => {
  const open = () => {
    const client = new KeepingClient();
    const pool = {
      connect: async () => client as unknown as PostgresPoolClient,
      end: async () => {},
    } as PostgresPool;
    return { client, pool: nameStatements(pool) };
  };

  test('a config is named by its text, its rowMode and its own parsers kept; one the caller named is sent as it is', async () => {
    const { client, pool } = open();
    const types = { getTypeParser: () => (text: string) => text };
    const query = pool.query as (config: unknown, values?: unknown) => Promise<unknown>;
    await query({ text: 'select $1::int', rowMode: 'array', types }, [1]);
    await query({ text: 'select $1::int', values: [2] });
    await query({ name: 'mine', text: 'select $1::int' }, [3]);
    expect(client.sent).toEqual([
      { name: 'pagewise_1', text: 'select $1::int', rowMode: 'array', types, values: [1] },
      {
        name: 'pagewise_1',
        text: 'select $1::int',
        rowMode: undefined,
        types: expect.anything(),
        values: [2],
      },
      { name: 'mine', text: 'select $1::int', rowMode: undefined, types: undefined, values: [3] },
    ]);
    // The second config had no parsers of its own: it got the recording ones.
    expect(client.sent[1]!.types).not.toBe(types);
    // Each statement checked a connection out and gave it back whole.
    expect(client.released).toEqual([undefined, undefined, undefined]);
  });

  test('pool.query answers a callback, and gives a connection back as broken after an error', async () => {
    const { client, pool } = open();
    const query = pool.query as (text: unknown, done: (error: unknown, answer: unknown) => void) => unknown;
    const answer = await new Promise((resolve) =>
      query('select 1', (error, result) => resolve({ error, result })),
    );
    expect(answer).toEqual({ error: undefined, result: { command: 'SELECT', rowCount: 0, rows: [] } });
    const failure = new Error('boom');
    client.query = () => {
      throw failure;
    };
    await expect(
      (pool.query as (text: string, values: unknown[]) => Promise<unknown>)('select $1', [1]),
    ).rejects.toBe(failure);
    expect(client.released.at(-1)).toBe(failure);
  });

  test('everything else is the pool itself', () => {
    class Pool {
      readonly totalCount = 3;
      connect = async () => new KeepingClient() as unknown as PostgresPoolClient;
      async end() {}
      count(this: Pool) {
        return this.totalCount;
      }
    }
    const raw = new Pool();
    const pool = nameStatements(raw);
    expect(pool).toBeInstanceOf(Pool);
    expect(pool.totalCount).toBe(3);
    expect(pool.count()).toBe(3);
    expect(pool.count).toBe(pool.count);
    expect(pool.connect).not.toBe(raw.connect);
  });
});
