import { ExactText } from '../codec/exact-text.js';
import { isStockDateParser, parseDateText } from './date-parser.js';
import type {
  NamedPgPool,
  PgCursor,
  PgPool,
  PgPoolClient,
  PgQueryConfig,
  PgQueryResult,
} from './pg-types.js';

/** Type OIDs of `timestamptz`, `timestamp` and `date`, whose text the parsers record. */
const TEMPORAL_OIDS: ReadonlySet<number> = new Set([1184, 1114, 1082]);

type Parser = (text: string) => unknown;

/** What `pg` asks a query's `types` for. */
interface QueryTypes {
  getTypeParser(oid: number, format?: string): Parser;
}

/** A named statement: the prototype of its queries' configs. */
interface Statement {
  readonly name: string | undefined;
  readonly text: string;
}

/** One query's config for `pg`: its statement's name and text inherited, its own parsers (and the caller's `rowMode`). */
interface QueryConfig extends Statement {
  types?: unknown;
  [option: string]: unknown;
}

/** A query `pg` sends as it is: a submittable (`pg-cursor`), or a config whose caller named it. */
function sentAsItIs(input: unknown): boolean {
  if (typeof input === 'string') return false;
  const config = input as { submit?: unknown; name?: unknown; text?: unknown } | null;
  return (
    config === null ||
    typeof config.submit === 'function' ||
    config.name !== undefined ||
    typeof config.text !== 'string'
  );
}

/** A `pg` client as `nameStatements` uses it. */
type Client = PgPoolClient & {
  query<R>(
    config: QueryConfig | string,
    values: unknown[] | undefined,
    callback: (error: Error | null | undefined, answer: PgQueryResult<R> | undefined) => void,
  ): void;
  getTypeParser?(oid: number, format?: string): Parser;
  /** The process id of the server's BackendKeyData: the backend's, or a pooler's own. */
  readonly processID?: unknown;
  /** `'I'` outside a transaction block, as of the last ReadyForQuery (recent pg releases only). */
  getTransactionStatus?(): string | null;
  on?(event: 'error', listener: (error: Error) => void): unknown;
  release(error?: Error): void;
};

/**
 * SQLSTATEs of a statement name the session does not hold as we think: `26000` (prepared
 * statement "pagewise_3" does not exist) and `42P05` (... already exists). Directly on Postgres
 * only code that deallocates or prepares our names causes them; behind a pooler that hands each
 * transaction another server, every name does.
 */
const NAME_ERRORS: ReadonlySet<unknown> = new Set(['26000', '42P05']);

/**
 * Whether `client` talks to Postgres itself rather than to a pooler: the process id in the
 * BackendKeyData it received at startup is its backend's `pg_backend_pid()`. A pooler that moves a
 * client between servers (PgBouncer, pgcat, Supavisor, Odyssey in transaction or statement mode)
 * must route the client's cancel requests itself, so it answers the startup with a key of its
 * own; one that passes a backend's key through keeps the client on that backend. One round trip,
 * once per physical connection. A server error (no `pg_backend_pid()`) answers `false`; a
 * connection error releases the client as broken and is thrown, as the query would have.
 */
async function talksToPostgres(client: Client): Promise<boolean> {
  const key = client.processID;
  if (typeof key !== 'number') return false;
  try {
    const { rows } = await client.query<{ pid: unknown }>('select pg_backend_pid() as pid', []);
    return rows[0]?.pid === key;
  } catch (error) {
    if ((error as { severity?: unknown }).severity !== undefined) return false;
    client.release(error as Error);
    throw error;
  }
}

/**
 * One query's parsers over `own` (the client's, user-set ones included): those of timestamps and
 * dates also record the text Postgres sent on the object they answer. pg's default parser is
 * replaced by `parseDateText`, which answers the same values faster (and hands any other text
 * back to it). A parser answering a primitive (a user's string, pg's `null` for a non-ISO
 * `DateStyle`) cannot carry the text: the query's rows are then marked, so no position is guessed
 * from them. pg's `±Infinity` for `±infinity` needs no text. Per query, so the mark is the
 * query's own even when queries share a client.
 */
class RecordingTypes implements QueryTypes {
  missing = false;
  readonly #own: (oid: number, format?: string) => Parser;
  readonly #stock: (parse: Parser) => boolean;

  constructor(own: (oid: number, format?: string) => Parser, stock: (parse: Parser) => boolean) {
    this.#own = own;
    this.#stock = stock;
  }

  getTypeParser(oid: number, format?: string): Parser {
    const parse = this.#own(oid, format);
    if (!TEMPORAL_OIDS.has(oid) || (format !== undefined && format !== 'text')) return parse;
    if (!this.#stock(parse)) return (text: string) => this.#recorded(text, parse(text));
    return (text: string) => {
      const value = parseDateText(text);
      if (value === undefined) return this.#recorded(text, parse(text));
      if (typeof value === 'object') ExactText.record(value, text);
      return value;
    };
  }

  #recorded(text: string, value: unknown): unknown {
    if (typeof value === 'object' && value !== null) ExactText.record(value, text);
    else if (
      !(text === 'infinity' && value === Number.POSITIVE_INFINITY) &&
      !(text === '-infinity' && value === Number.NEGATIVE_INFINITY)
    ) {
      this.missing = true;
    }
    return value;
  }
}

/**
 * A text without parameters that is one query (`select ...` or `with ...`, no `;` anywhere): a
 * first cursor page (`... order by "created" desc limit 51`), prepared as a named statement like
 * any other. DDL and several statements in one text run as before.
 */
function oneSelect(text: string): boolean {
  return /^\s*(select|with)\s/i.test(text) && !text.includes(';');
}

/** Options of `nameStatements`. */
export interface NameStatementsOptions {
  /**
   * How many distinct SQL texts get a name; texts past it run unnamed, as before. Each connection
   * keeps the statements it prepared until it closes.
   * @default 500
   */
  readonly max?: number;
  /**
   * The prefix of the statement names, unique among the names your own code prepares.
   * @default 'pagewise_'
   */
  readonly prefix?: string;
  /**
   * Record the exact text Postgres sends for each `timestamptz`, `timestamp` and `date` value
   * beside the value the pool's parser answers (in a private field: rows, JSON and equality are
   * unchanged), so cursor pages read exact positions from it instead of selecting a
   * `to_char(...)` column per timestamp. The adapter checks once per database that the text is
   * recorded and in ISO output (the default `DateStyle`); otherwise it selects the column as
   * before. Where the pool's parser of these types is pg's default one, the text is read by
   * `parseDateText`, to the same `Date`s faster; a parser you set is called for every value.
   * `false` sends queries exactly as the stock driver does.
   * @default true
   */
  readonly exactTimestamps?: boolean;
}

/**
 * A `pg` pool (for Kysely's `PostgresDialect`, Drizzle's `drizzle-orm/node-postgres`, or any
 * query builder that checks clients out of it or calls `pool.query`) that sends every parameterized statement as a named
 * prepared statement: Postgres parses it once per connection, and after five runs may switch it
 * to a generic plan; the stock driver sends each query unnamed, parsed and planned anew (about
 * 5-10% of a cursor page's time over a fast connection). Names are given in order of first use
 * (`pagewise_1`, `pagewise_2`, ...), one per SQL text, so no two texts ever share one. A query
 * without parameters is named too when it is one `select` or `with` (no `;`): Postgres then plans
 * it once. Other statements without parameters (DDL, several statements in one text) run as before.
 *
 * Statements are named only on connections that talk to Postgres directly, checked once per
 * physical connection (`select pg_backend_pid()` against the process id of the connection's
 * BackendKeyData, which a pooler such as PgBouncer issues itself). Behind a pooler they run
 * unnamed, as the stock driver sends them: in transaction pooling each transaction may run on
 * another server, where a name is missing (`26000`), taken (`42P05`), or taken by another
 * process's different statement, which would run silently in its place. Should a named statement
 * still fail with `26000` or `42P05`, the pool names nothing more, and the statement runs again
 * unnamed when it was not inside a transaction block (inside one, the transaction is aborted and
 * the error is the caller's). The clients it hands out have an `error` listener: pg emits that
 * event when a pooler or server restart cuts a checked-out connection, and unheard it would end
 * the process (the query running on it still fails with the error).
 *
 * A prepared statement keeps the result type its table had: after `ALTER TABLE` changes a column
 * it selects, Postgres answers "cached plan must not change result type" until the connection is
 * renewed. Use it where the schema does not change under a running process.
 *
 * With `exactTimestamps` (the default), each query's type parsers record the exact text of
 * timestamps beside the values (see the option): cursor pages over timestamp columns select no
 * extra text column.
 *
 * Queries go through pg's callback form: with its promise form, pg keeps each query's rows
 * reachable past Node 20's young-generation collections (until a full one), which costs a busy
 * server tens of microseconds of garbage collection per request.
 *
 * The answer is the pool itself to everything else (`instanceof pg.Pool`, its events, counts and
 * `end`). A query config of the caller's (`{ text, rowMode, types }`, as Drizzle sends) keeps its
 * options and parsers, named like a text; one that carries its own `name` is sent as it is.
 *
 * @example
 * const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: nameStatements(new pg.Pool({ connectionString })) }) });
 * const orm = drizzle(nameStatements(new pg.Pool({ connectionString })));
 */
export function nameStatements<P extends PgPool>(
  pool: P,
  options: NameStatementsOptions = {},
): P & NamedPgPool {
  const max = options.max ?? 500;
  const prefix = options.prefix ?? 'pagewise_';
  const exact = options.exactTimestamps ?? true;
  // Each named text's name and text, as the prototype of its queries' configs: pg copies a
  // config's own properties one by one (`Object.getOwnPropertyDescriptors`, ~1.3 us for four, 3 us
  // a page beside the rows), and copies the prototype as it is.
  const statements = new Map<string, Statement>();
  const statementOf = (text: string): Statement | undefined => {
    let statement = statements.get(text);
    if (statement === undefined && statements.size < max) {
      statement = { name: `${prefix}${statements.size + 1}`, text };
      statements.set(text, statement);
    }
    return statement;
  };
  // Whether a parser is pg's default one, asked once per parser function.
  const stockParsers = new WeakMap<Parser, boolean>();
  const stock = (parse: Parser): boolean => {
    let known = stockParsers.get(parse);
    if (known === undefined) {
      known = isStockDateParser(parse);
      stockParsers.set(parse, known);
    }
    return known;
  };
  // Cleared for good by the first statement a server disowns (see NAME_ERRORS).
  let naming = true;
  const wrap = (client: Client, direct: boolean): PgPoolClient => {
    const own = exact ? client.getTypeParser?.bind(client) : undefined;
    return {
      query<R>(
        input: string | PgQueryConfig | PgCursor<R>,
        parameters?: ReadonlyArray<unknown>,
      ): Promise<PgQueryResult<R>> & PgCursor<R> {
        if (sentAsItIs(input)) return client.query(input as string, parameters as unknown[]) as never;
        const config = typeof input === 'string' ? undefined : (input as PgQueryConfig);
        const text = config === undefined ? (input as string) : config.text;
        const values = parameters ?? config?.values;
        const statement =
          naming && direct && ((values !== undefined && values.length > 0) || oneSelect(text))
            ? statementOf(text)
            : undefined;
        // Parsers of the caller's own (Drizzle's answer timestamps as their text) are kept as
        // they are: no value to record a text on.
        const recording = config?.types === undefined ? own : undefined;
        if (statement === undefined && recording === undefined) {
          return client.query(input as string, parameters as unknown[]) as never;
        }
        // pg's callback form: without a callback, pg assigns a closure of its own to each query
        // (`query.callback = ...` inside a promise executor), which V8 (Node 20) keeps reachable
        // until a full collection, and with it every query's rows past each scavenge.
        return new Promise<PgQueryResult<R>>((resolve, reject) => {
          // `disowned`: the name error of a first attempt, when this one reruns it unnamed.
          const send = (named: Statement | undefined, disowned?: Error) => {
            const types = recording === undefined ? undefined : new RecordingTypes(recording, stock);
            const query: QueryConfig = Object.create(named ?? { name: undefined, text });
            if (config !== undefined) {
              for (const option of Object.keys(config))
                if (option !== 'name' && option !== 'text' && option !== 'values')
                  query[option] = (config as unknown as Record<string, unknown>)[option];
            }
            if (types !== undefined) query.types = types;
            client.query<R>(query, values as unknown[] | undefined, (error, answer) => {
              if (error) {
                const code = (error as { code?: unknown }).code;
                if (named !== undefined && NAME_ERRORS.has(code)) {
                  naming = false;
                  // pg answers an error before the ReadyForQuery after it, so the status is the
                  // one this statement started in. Outside a transaction block ('I') the failed
                  // statement changed nothing: run it again as the stock driver would. Inside
                  // one ('T') the transaction is aborted: the error is the caller's. A pg that
                  // does not report the status gets the rerun too, which an aborted transaction
                  // refuses (25P02): the caller then sees the first error.
                  const status = client.getTransactionStatus?.() ?? null;
                  if (status === 'I' || status === null) {
                    send(undefined, error);
                    return;
                  }
                }
                reject(disowned !== undefined && code === '25P02' ? disowned : error);
                return;
              }
              if (types?.missing && Array.isArray(answer!.rows))
                ExactText.record(answer!.rows, ExactText.MISSING);
              resolve(answer!);
            });
          };
          send(statement);
        }) as never;
      },
      release: (...args: unknown[]) => (client.release as (...args: unknown[]) => void)(...args),
      // Kysely 0.29 cancels an aborted query with `pg_cancel_backend` of this id (it asks the
      // server with one more query where the client has none).
      get processID() {
        return client.processID;
      },
    } as PgPoolClient;
  };
  // One wrapper per pg connection, as Kysely keys its connections (and `onCreateConnection`) by it.
  const wrappers = new WeakMap<Client, PgPoolClient>();
  // Whether each physical connection talks to Postgres itself, asked when it is first checked out.
  // Keyed by pg's Connection where the client has one: a pool wrapper that hands out a new object
  // per checkout over the same client (`Object.create(client)`) must not cost a round trip each.
  const direct = new WeakMap<object, boolean>();
  const ignore = () => {};
  const connect = async (): Promise<PgPoolClient> => {
    const client = (await pool.connect()) as Client;
    let wrapper = wrappers.get(client);
    if (wrapper === undefined) {
      const { connection } = client as { connection?: unknown };
      const physical = typeof connection === 'object' && connection !== null ? connection : client;
      let talks = direct.get(physical);
      if (talks === undefined) {
        // pg emits `error` on a checked-out client whose connection is cut (a pooler or server
        // restart) besides failing its queries, and Kysely's driver listens to none: unheard,
        // the event ends the process. The query sees the error; pg-pool drops the client. Heard
        // from before the check below, whose query a cut can interrupt too.
        client.on?.('error', ignore);
        talks = naming && (await talksToPostgres(client));
        direct.set(physical, talks);
      }
      wrapper = wrap(client, talks);
      wrappers.set(client, wrapper);
    }
    return wrapper;
  };
  // pg-pool's `query` (what Drizzle's node-postgres driver calls outside transactions): one
  // connection checked out of this pool for the statement, released after it, and released as
  // broken after an error, as pg-pool does. A callback answers through it; a submittable
  // (`pg-cursor`) goes to the pool's own `query`, unnamed.
  const query = (input: unknown, values?: unknown, callback?: unknown): unknown => {
    let done = callback;
    let parameters = values;
    if (typeof parameters === 'function') {
      done = parameters;
      parameters = undefined;
    }
    if (
      typeof input === 'object' &&
      input !== null &&
      typeof (input as { submit?: unknown }).submit === 'function'
    )
      return (pool.query as (...args: unknown[]) => unknown)(input, parameters, done);
    const answer = (async () => {
      const client = await connect();
      let result: unknown;
      try {
        result = await (client.query as (input: unknown, values: unknown) => Promise<unknown>)(
          input,
          parameters,
        );
      } catch (error) {
        (client.release as (error?: unknown) => void)(error);
        throw error;
      }
      client.release();
      return result;
    })();
    if (typeof done !== 'function') return answer;
    answer.then(
      (result) => done(undefined, result),
      (error) => done(error),
    );
    return undefined;
  };
  // Everything else is the pool's own (its events, counts, `end`, Kysely 0.29's `options` and
  // `Client`): the answer is the pool to its users (`instanceof pg.Pool`, Drizzle's transactions
  // check out a connection of it), its methods bound to it once.
  const bound = new Map<PropertyKey, { readonly of: unknown; readonly fn: unknown }>();
  return new Proxy(pool, {
    get(target, key) {
      if (key === 'connect') return connect;
      if (key === 'query') return query;
      const value = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      let kept = bound.get(key);
      if (kept?.of !== value) {
        kept = { of: value, fn: value.bind(target) };
        bound.set(key, kept);
      }
      return kept.fn;
    },
  }) as P & NamedPgPool;
}
