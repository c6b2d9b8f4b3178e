// The `pg` objects `nameStatements` wraps and answers, typed by their shape alone (no driver or
// query builder types): what pg's `Pool` and its clients have, as Kysely 0.28 and 0.29 and
// Drizzle's node-postgres driver use them.

/** A result of `pg`'s `query`. */
export interface PgQueryResult<R> {
  command: 'UPDATE' | 'DELETE' | 'INSERT' | 'SELECT' | 'MERGE';
  rowCount: number;
  rows: R[];
}

/** A `pg-cursor` (Kysely's `.stream()`), passed through as it is. */
export interface PgCursor<T> {
  read(rowsCount: number): Promise<T[]>;
  close(): Promise<void>;
}

/** A client `pg`'s pool checks out. */
export interface PgPoolClient {
  query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PgQueryResult<R>>;
  query<R>(cursor: PgCursor<R>): PgCursor<R>;
  release(destroy?: boolean): void;
  /** The process id of the server's BackendKeyData. */
  readonly processID?: number;
}

/** A client as `new pg.Client(options)` makes one (Kysely 0.29's control connection). */
export interface PgClient extends Omit<PgPoolClient, 'release'> {
  connect(): Promise<PgClient>;
  end(): void;
}

/** pg's `Client` class. */
// biome-ignore lint/suspicious/noExplicitAny: pg's constructor takes its own options object.
export type PgClientConstructor = new (options: any) => PgClient;

/**
 * A query's config as `pg` takes it (`client.query(config, values)`): Drizzle's node-postgres
 * driver sends its statements so, with `rowMode: 'array'` and parsers of its own in `types`.
 */
export interface PgQueryConfig {
  readonly text: string;
  /** A name of the caller's own: the statement is sent under it, as it is. */
  readonly name?: string;
  readonly values?: ReadonlyArray<unknown>;
  readonly rowMode?: 'array';
  readonly types?: unknown;
}

/** A `pg` `Pool`, as `nameStatements` takes and answers it. */
export interface PgPool {
  connect(): Promise<PgPoolClient>;
  end(): Promise<void>;
  /** pg-pool's own query: a connection checked out for one statement (Drizzle's node-postgres driver). */
  query?(...args: never[]): unknown;
  /** The pool's connection options (pg's `pool.options`). */
  readonly options?: object;
  /** The pool's client class (pg's `pool.Client`). */
  readonly Client?: PgClientConstructor;
}

/** `nameStatements`' answer: a pool of the same shape, its connection options always there. */
export interface NamedPgPool extends PgPool {
  readonly options: object;
}
