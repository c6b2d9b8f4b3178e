// The mysql2 objects (its callback API, `createPool` from 'mysql2') `recordExactTimestamps` wraps
// and answers, typed by their shape alone, as Kysely 0.28 and 0.29 use them.

/** What a query of a non-SELECT statement answers. */
export interface Mysql2OkPacket {
  affectedRows: number;
  changedRows: number;
  insertId: number;
}

/** A result of mysql2's `query`: rows, or what a write did. */
export type Mysql2QueryResult = Mysql2OkPacket | Record<string, unknown>[];

/** What mysql2's `query` answers without a callback: a query whose rows stream (mysql2's own type). */
// biome-ignore lint/suspicious/noExplicitAny: mysql2's Query is typed by mysql2 itself.
export type Mysql2Query = any;

/** A connection mysql2's pool checks out. */
export interface Mysql2PoolConnection {
  /** With a callback: the result; without one, a query whose rows stream. */
  query(
    sql: string,
    parameters: Array<unknown>,
    callback?: (error: unknown, result: Mysql2QueryResult) => void,
  ): Mysql2Query;
  release(): void;
  /** Its connection options (what Kysely 0.29 opens a control connection with). */
  readonly config: object;
  /** mysql2's connection id (what Kysely 0.29 kills to cancel a query). */
  readonly threadId: number;
  connect(callback?: (error: unknown) => void): void;
  destroy(): void;
}

/** A mysql2 pool (`createPool` of 'mysql2'), as `recordExactTimestamps` takes and answers it. */
export interface Mysql2Pool {
  getConnection(callback: (error: unknown, connection: Mysql2PoolConnection) => void): void;
  end(callback: (error: unknown) => void): void;
}
