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
