import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { nameStatements, reusePreparedStatements } from '@pagewise/kysely-adapter';
import SQLite from 'better-sqlite3';
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { type Insertable, Kysely, PostgresDialect, type PostgresPool, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { isConnectionError } from './database-errors.js';
import { progressBar } from './progress.js';
import type { ArticleTable, DemoDatabase } from './schema.js';

/** Which database the demo runs on. */
export interface DemoDatabaseHandle {
  readonly db: Kysely<DemoDatabase>;
  /**
   * The same database through Drizzle (`ORM=drizzle`): the articles are then paged by
   * `fromDrizzle` over drizzle-orm's own driver; `undefined` on Kysely.
   */
  readonly drizzle?: DemoDrizzle | undefined;
  readonly dialect: 'sqlite' | 'postgres';
  readonly where: string;
}

/** The demo database through Drizzle, over the driver object the Kysely side uses. */
export type DemoDrizzle =
  | { readonly dialect: 'sqlite'; readonly db: ReturnType<typeof drizzleSqlite> }
  | { readonly dialect: 'postgres'; readonly db: ReturnType<typeof drizzlePg> };

/** How `openDatabase` connects. */
export interface OpenDatabaseOptions {
  /**
   * The ORM the articles are paged through: Kysely (`fromKysely`) or Drizzle (`fromDrizzle`),
   * with the same answers. The server reads it from `ORM`.
   * @default 'kysely'
   */
  readonly orm?: 'kysely' | 'drizzle';
  /**
   * Postgres: send each statement as a named prepared statement with exact timestamp text
   * (`nameStatements` of the Kysely adapter). Off by default: the demo's tests drop and recreate
   * tables under live connections, where a prepared statement answers "cached plan must not
   * change result type"; a served demo whose schema stays put (the HTTP bench) turns it on.
   * @default false
   */
  readonly nameStatements?: boolean;
}

/**
 * Opens the demo database: Postgres when `url` is a `postgres://` URL, otherwise an embedded
 * SQLite file at `sqliteFile` (created on first start).
 */
export async function openDatabase(
  url: string | undefined,
  sqliteFile: string,
  options: OpenDatabaseOptions = {},
): Promise<DemoDatabaseHandle> {
  if (url && /^postgres(ql)?:\/\//.test(url)) {
    const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5000 });
    // A client whose backend dies (restart, pg_terminate_backend) emits 'error'; with no listener
    // that ends the process. The pool listens only while a client is idle, so every client gets
    // its own listener too: a checked-out one can die between two queries of a request.
    const lost = (error: Error) => console.error(`pagewise demo: database connection lost: ${error.message}`);
    pool.on('error', lost);
    pool.on('connect', (client) => client.on('error', lost));
    const db = new Kysely<DemoDatabase>({
      dialect: new PostgresDialect({
        pool: options.nameStatements
          ? nameStatements(discardingBrokenClients(pool))
          : discardingBrokenClients(pool),
      }),
    });
    try {
      await sql`select 1`.execute(db);
    } catch (error) {
      await db.destroy();
      throw new Error(`Cannot reach the database at ${redact(url)}: ${(error as Error).message}`);
    }
    const drizzle: DemoDrizzle | undefined =
      options.orm === 'drizzle' ? { dialect: 'postgres', db: drizzlePg(pool) } : undefined;
    return { db, drizzle, dialect: 'postgres', where: redact(url) };
  }
  if (url)
    throw new Error(`DATABASE_URL must be a postgres:// URL (got ${redact(url)}); leave it unset for SQLite`);
  mkdirSync(dirname(sqliteFile), { recursive: true });
  const database = new SQLite(sqliteFile);
  database.pragma('journal_mode = WAL');
  // Each SQL text prepared once: the stock driver prepares every query anew, 25 us or more for a
  // cursor page's statement.
  const db = new Kysely<DemoDatabase>({
    dialect: new SqliteDialect({ database: reusePreparedStatements(database) }),
  });
  const drizzle: DemoDrizzle | undefined =
    options.orm === 'drizzle' ? { dialect: 'sqlite', db: drizzleSqlite(database) } : undefined;
  return { db, drizzle, dialect: 'sqlite', where: sqliteFile };
}

/**
 * The pool as Kysely sees it, except that a client whose query failed because its connection
 * died is released with that error, so pg destroys it instead of handing it to the next request
 * (its socket may not have closed yet when it is released).
 */
function discardingBrokenClients(pool: pg.Pool): PostgresPool {
  return {
    async connect() {
      const client = await pool.connect();
      let broken: Error | undefined;
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      return Object.assign(Object.create(client) as pg.PoolClient, {
        query: (...args: unknown[]) => {
          const result = query(...args);
          if (result instanceof Promise) {
            return result.catch((error: unknown) => {
              if (isConnectionError(error)) broken = error as Error;
              throw error;
            });
          }
          return result;
        },
        release: () => client.release(broken),
      });
    },
    end: () => pool.end(),
  };
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}

/** Deterministic pseudo-random numbers (mulberry32), so every seeded database is the same. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'keyset',
  'cursor',
  'offset',
  'index',
  'page',
  'version',
  'query',
  'row',
  'link',
  'order',
  'null',
  'tie',
];
const FIRST_NAMES = [
  'Ada',
  'Grace',
  'Edsger',
  'Barbara',
  'Donald',
  'Frances',
  'Ken',
  'Radia',
  'Tony',
  'Margaret',
];
const LAST_NAMES = [
  'Lovelace',
  'Hopper',
  'Dijkstra',
  'Liskov',
  'Knuth',
  'Allen',
  'Thompson',
  'Perlman',
  'Hoare',
  'Hamilton',
];

/**
 * Creates the tables and seeds `articles` rows (with a progress bar) unless they are already
 * there, so later starts reuse the data.
 */
export async function ensureSeeded({ db, dialect }: DemoDatabaseHandle, articles: number): Promise<boolean> {
  const timestamp = dialect === 'postgres' ? 'timestamptz' : 'text';
  await db.schema
    .createTable('authors')
    .ifNotExists()
    .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('articles')
    .ifNotExists()
    .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('author_id', 'integer', (c) => c.notNull().references('authors.id'))
    .addColumn('published_at', sql.raw(timestamp), (c) => c.notNull())
    .addColumn('rating', 'integer')
    .execute();
  const { n } = await db
    .selectFrom('articles')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  if (Number(n) >= articles) return false;

  const rand = random(42);
  await db.deleteFrom('articles').execute();
  await db.deleteFrom('authors').execute();
  const authors = FIRST_NAMES.flatMap((first, i) =>
    LAST_NAMES.slice(0, 5).map((last, j) => ({
      id: i * 5 + j + 1,
      name: `${first} ${last}`,
      email: `${first}.${last}@example.org`.toLowerCase(),
    })),
  );
  await db.insertInto('authors').values(authors).execute();

  const start = Date.UTC(2024, 0, 1);
  const report = progressBar('Seeding articles', articles);
  const batch = 1000;
  for (let done = 0; done < articles; done += batch) {
    const rows: Insertable<ArticleTable>[] = [];
    for (let i = done; i < Math.min(articles, done + batch); i += 1) {
      // About seven articles per minute: equal timestamps everywhere.
      const published = new Date(start + Math.floor(i / 7) * 60_000);
      const words = Array.from({ length: 4 }, () => WORDS[Math.floor(rand() * WORDS.length)]);
      rows.push({
        id: i + 1,
        title: `${words.join(' ')} #${i + 1}`,
        body: `Article ${i + 1} on ${words.join(', ')}.`,
        author_id: 1 + Math.floor(rand() * authors.length),
        published_at: dialect === 'postgres' ? published : published.toISOString(),
        rating: rand() < 0.3 ? null : 1 + Math.floor(rand() * 5),
      });
    }
    await db.transaction().execute((trx) => trx.insertInto('articles').values(rows).execute());
    report(Math.min(articles, done + batch));
  }
  if (dialect === 'postgres') {
    await sql`select setval('articles_id_seq', (select max(id) from articles))`.execute(db);
    await sql`select setval('authors_id_seq', (select max(id) from authors))`.execute(db);
  }
  await db.schema
    .createIndex('articles_published_idx')
    .ifNotExists()
    .on('articles')
    .columns(['published_at', 'id'])
    .execute();
  await db.schema
    .createIndex('articles_rating_idx')
    .ifNotExists()
    .on('articles')
    .columns(['rating', 'id'])
    .execute();
  await db.schema
    .createIndex('articles_title_idx')
    .ifNotExists()
    .on('articles')
    .columns(['title', 'id'])
    .execute();
  await sql`analyze`.execute(db);
  return true;
}
