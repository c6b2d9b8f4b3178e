import { ConfigurationError } from '@pagewise/core';
import {
  type AdapterName,
  boundedStatement,
  CatalogCache,
  type ColumnInfo,
  type ColumnKind,
  type DialectCapabilities,
  mysqlTextCapabilities,
  postgresTextCapabilities,
  type Row,
  type SqlFragment,
  type SqlSession,
  type StatementTimeout,
  sqliteCapabilities,
  uniqueKeyColumns,
} from '@pagewise/sql';
import { is, type SQL } from 'drizzle-orm';
import { MySqlDialect } from 'drizzle-orm/mysql-core';
import { PgDialect } from 'drizzle-orm/pg-core';
import { SQLiteDialect } from 'drizzle-orm/sqlite-core';
import type { DialectLike } from './builder-config.js';
import { lower } from './lower.js';
import { DRIZZLE, type DrizzleDatabase } from './options.js';
import {
  type BuiltStatement,
  type Decoder,
  fieldDecoder,
  orderedFieldsWith,
  WHERE_VALUE,
} from './statements.js';

/** A statement prepared once through the database's session; its placeholders filled per run. */
export interface DrizzleTemplate {
  /** The statement's text, for messages and tests. */
  readonly sql: string;
  readonly run: (values: Readonly<Record<string, unknown>>) => Promise<Row[]>;
}

/** The dialect families Drizzle's sessions differ by, in how a statement is prepared and run. */
type Family = 'postgres' | 'mysql' | 'sqlite';

/** A Drizzle prepared query, as far as the adapter runs it. */
interface PreparedLike {
  execute?(values?: Record<string, unknown>): unknown;
  all?(values?: Record<string, unknown>): unknown;
  joinsNotNullableMap?: Record<string, boolean>;
}

/** A Drizzle session (`PgSession`, `MySqlSession`, `SQLiteSession`), as far as the adapter prepares statements on it. */
interface SessionLike {
  prepareQuery(query: { sql: string; params: unknown[] }, ...rest: unknown[]): PreparedLike;
  /** Runs `run` in a transaction of its own (one pooled connection), with the transaction as a database. */
  transaction?<T>(run: (tx: unknown) => Promise<T>): Promise<T>;
}

/** The session of a Drizzle database or transaction: `db.session`, or `db._.session`. */
function sessionOf(db: unknown): SessionLike | undefined {
  const held = db as { readonly session?: unknown; readonly _?: { readonly session?: unknown } } | undefined;
  const session = (held?.session ?? held?._?.session) as SessionLike | undefined;
  return session !== undefined && typeof session.prepareQuery === 'function' ? session : undefined;
}

/**
 * Whether `error` is the server cancelling a statement at `timeout`'s limit: the driver's error,
 * or Drizzle's `DrizzleQueryError` around it (its `cause`).
 */
export function timedOut(timeout: StatementTimeout, error: unknown): boolean {
  if (timeout.timedOut(error)) return true;
  const cause = error instanceof Error ? error.cause : undefined;
  return cause !== undefined && timeout.timedOut(cause);
}

/** Where a database's catalog reads are kept: on its session, which lives and dies with the db. */
const OWN_CACHE = Symbol('pagewise catalog cache');

/** The catalog cache of a Drizzle session, made the first time; a frozen session's queries each keep their own. */
function cacheOf(session: SessionLike): CatalogCache {
  const owner = session as unknown as { [OWN_CACHE]?: CatalogCache };
  const own = owner[OWN_CACHE];
  if (own !== undefined) return own;
  const cache = new CatalogCache();
  if (Object.isExtensible(owner))
    Object.defineProperty(owner, OWN_CACHE, { value: cache, enumerable: false });
  return cache;
}

/**
 * The Drizzle session of `db` (`db.session`, or `db._.session` on some drivers), `undefined` for
 * anything else.
 */
export function drizzleSessionOf(db: unknown): object | undefined {
  return sessionOf(db);
}

/**
 * The rows of a statement whose selection is flat (every field at the top level, no joins), mapped
 * as Drizzle maps them (each field's value through its column's or expression's decoder, `null`
 * as it is) with the decoders found once per statement instead of once per value, and the
 * private columns (`BuiltStatement.own`, the last ones) as the driver read them; `undefined`
 * where Drizzle's own mapping is needed (nested selections).
 */
function flatRows(
  fields: ReadonlyArray<{ path: string[]; field: unknown }>,
  statement: BuiltStatement,
): ((rows: unknown[][]) => Row[]) | undefined {
  const own = statement.own;
  const selected = fields.length - own;
  const keys: string[] = [];
  const decoders: Decoder[] = [];
  // A statement that left private columns to copies (`keysetSql`) was built for this mapping.
  const unmapped = () => {
    if ((statement.copies?.length ?? 0) > 0)
      throw new Error('drizzle adapter: a statement whose private columns are copies needs a flat selection');
    return undefined;
  };
  for (let i = 0; i < fields.length; i += 1) {
    const { path, field } = fields[i]!;
    if (path.length !== 1) return unmapped();
    keys.push(path[0]!);
    if (i >= selected) continue;
    const decoder = fieldDecoder(field);
    if (decoder === undefined) return unmapped();
    decoders.push(decoder);
  }
  const count = fields.length;
  // Private columns the selection holds already (`BuiltStatement.copies`): the driver's value of that field.
  const copies = (statement.copies ?? []).map((copy) => ({ alias: copy.alias, at: keys.indexOf(copy.key) }));
  if (copies.some((copy) => copy.at < 0 || copy.at >= selected)) return unmapped();
  return (rows) => {
    const out: Row[] = new Array(rows.length);
    for (let r = 0; r < rows.length; r += 1) {
      const values = rows[r]!;
      const row: Row = {};
      for (let i = 0; i < count; i += 1) {
        const raw = values[i];
        row[keys[i]!] = raw === null || i >= selected ? raw : decoders[i]!.mapFromDriverValue(raw);
      }
      for (const copy of copies) row[copy.alias] = values[copy.at];
      out[r] = row;
    }
    return out;
  };
}

/** The family of a Drizzle dialect, recognised with Drizzle's `is()` (two copies of drizzle-orm agree). */
function familyOf(dialect: unknown): Family | undefined {
  if (is(dialect, PgDialect)) return 'postgres';
  if (is(dialect, MySqlDialect)) return 'mysql';
  if (is(dialect, SQLiteDialect)) return 'sqlite';
  return undefined;
}

// Drizzle's Postgres and mysql2 sessions hand temporal values over as the text the server sent:
// positions are read from it (after the same probe as recorded text), the column selected as it is.
const CAPABILITIES: Record<Family, DialectCapabilities> = {
  postgres: postgresTextCapabilities,
  mysql: mysqlTextCapabilities,
  sqlite: sqliteCapabilities,
};

/**
 * What every copy made by `orderBy` shares: the options, the database's session (every statement
 * is prepared and run through it, so its logger sees them) and the catalog cache of the database:
 * `@pagewise/sql`'s session of the query's database.
 */
export class DrizzleSession implements SqlSession {
  readonly adapter: AdapterName = DRIZZLE;
  readonly capabilities: DialectCapabilities;
  readonly cache: CatalogCache;
  readonly uniqueKey: string | null;
  readonly uniqueKeys: readonly string[] | undefined;
  readonly columns: Readonly<Record<string, ColumnKind | ColumnInfo>>;
  readonly planKey: string;
  readonly lasting = true;
  readonly dialect: DialectLike;
  /** The database every statement runs on (its write builders serve `ModelViewSet`'s default writes). */
  readonly db: DrizzleDatabase;
  readonly #family: Family;
  readonly #session: SessionLike;

  constructor(
    db: DrizzleDatabase,
    dialect: DialectLike,
    uniqueKey: string | readonly string[] | null,
    columns: Readonly<Record<string, ColumnKind | ColumnInfo>>,
  ) {
    const key = uniqueKeyColumns(DRIZZLE, uniqueKey);
    const session = sessionOf(db);
    const family = familyOf(dialect);
    if (session === undefined || family === undefined) {
      throw new ConfigurationError(
        'drizzle adapter: fromDrizzle(select, { db }) needs the Drizzle database the select runs on ' +
          '(drizzle(...) of drizzle-orm/node-postgres, mysql2, better-sqlite3 or pglite)',
      );
    }
    this.#session = session;
    this.db = db;
    this.#family = family;
    this.dialect = dialect;
    this.capabilities = CAPABILITIES[family];
    this.cache = cacheOf(session);
    this.uniqueKey = key.uniqueKey;
    this.uniqueKeys = key.uniqueKeys;
    this.columns = columns;
    // A one-column key keys plans by its name, as it always has; a composite one by its list.
    this.planKey = JSON.stringify([key.uniqueKeys ?? key.uniqueKey, columns]);
  }

  /**
   * Prepares `statement` through the database's session: rows mapped by its fields as Drizzle
   * maps the builder's own (modes, nested selections), the private columns as the driver read them.
   */
  prepare(
    statement: BuiltStatement,
    joinsNotNullableMap?: Record<string, boolean>,
    session: SessionLike = this.#session,
    rewrite?: (text: string) => string,
  ): DrizzleTemplate {
    const built = this.dialect.sqlToQuery(statement.sql);
    const query = rewrite === undefined ? built : { ...built, sql: rewrite(built.sql) };
    const fields = statement.fields === undefined ? undefined : orderedFieldsWith(statement);
    const family = this.#family;
    // A flat selection maps no join's row to null (Drizzle nullifies nested tables only).
    const mapper = fields === undefined ? undefined : flatRows(fields, statement);
    let prepared: PreparedLike;
    if (family === 'postgres')
      prepared = session.prepareQuery(query, fields, undefined, fields !== undefined, mapper);
    else if (family === 'mysql') prepared = session.prepareQuery(query, fields, mapper);
    else prepared = session.prepareQuery(query, fields, 'all', fields !== undefined, mapper);
    if (joinsNotNullableMap !== undefined && fields !== undefined)
      prepared.joinsNotNullableMap = joinsNotNullableMap;
    const run = async (values: Readonly<Record<string, unknown>>): Promise<Row[]> => {
      const result =
        family === 'sqlite'
          ? await prepared.all!(values as Record<string, unknown>)
          : await prepared.execute!(values as Record<string, unknown>);
      if (fields !== undefined) return result as Row[];
      if (family === 'postgres') return (result as { rows: Row[] }).rows;
      if (family === 'mysql') return (result as [Row[]])[0];
      return result as Row[];
    };
    return { sql: query.sql, run };
  }

  /** Runs a statement of `@pagewise/sql`'s own (a catalog read, a probe): rows as the database names their columns. */
  read(statement: SqlFragment): Promise<Row[]> {
    return this.prepare({ sql: lower(statement), fields: undefined, extra: [], own: 0 }).run({});
  }

  /** Runs Drizzle SQL of the adapter's own (a count) without mapping its rows; `where`: the builder's values (`run`). */
  readSql(statement: SQL, where: readonly unknown[] = []): Promise<Row[]> {
    return this.run(this.prepare({ sql: statement, fields: undefined, extra: [], own: 0 }), [], where);
  }

  /**
   * Runs Drizzle SQL of the adapter's own (a count) with its time bounded on the server by
   * `timeout` (`@pagewise/sql`'s): behind `timeout.prefix` (MariaDB) or with `timeout.hint`
   * (MySQL) as one statement (`boundedStatement`), or after `timeout.setting` in a transaction of
   * its own through the database's session (Postgres), whose setting ends with it; `where` fills a
   * shape's WHERE placeholders. Throws what Drizzle throws
   * when the server cancels it (`timedOut`).
   *
   * @example
   * await session.readBounded(countSql(dialect, core), postgresStatementTimeout, 250)
   * // begin; select set_config('statement_timeout', $1, true) as "set"; select count(*) ...; rollback
   */
  async readBounded(
    statement: SQL,
    timeout: StatementTimeout,
    ms: number,
    where: readonly unknown[] = [],
  ): Promise<Row[]> {
    const setting = timeout.setting;
    if (setting === undefined) {
      const bounded = (text: string) => boundedStatement(timeout, ms, text);
      const template = this.prepare(
        { sql: statement, fields: undefined, extra: [], own: 0 },
        undefined,
        undefined,
        bounded,
      );
      return this.run(template, [], where);
    }
    const session = this.#session;
    if (session.transaction === undefined) return this.readSql(statement, where);
    return session.transaction<Row[]>(async (tx) => {
      const inner = sessionOf(tx) ?? session;
      const set = this.prepare(
        { sql: lower(setting(ms)), fields: undefined, extra: [], own: 0 },
        undefined,
        inner,
      );
      await this.run(set, []);
      return this.run(
        this.prepare({ sql: statement, fields: undefined, extra: [], own: 0 }, undefined, inner),
        [],
        where,
      );
    });
  }

  /**
   * Runs `template` with the window's values in its slots (`s0`, `s1`, ...) and the builder's
   * WHERE values in theirs (`w0`, `w1`, ...: statements shared by a shape, `shape-cache.ts`).
   */
  run(template: DrizzleTemplate, values: readonly unknown[], where: readonly unknown[] = []): Promise<Row[]> {
    const named: Record<string, unknown> = {};
    for (let i = 0; i < values.length; i += 1) named[`s${i}`] = values[i];
    for (let i = 0; i < where.length; i += 1) named[`${WHERE_VALUE}${i}`] = where[i];
    return template.run(named);
  }
}
