// The articles every app of tests/outside-apps serves, laid into the database each app opens: a
// SQLite file, a schema of its own on Postgres (PG_URL; else PGlite served over the Postgres wire
// protocol), a database of its own on MariaDB (MYSQL_URL; else skipped). The apps only read.
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import Database from 'better-sqlite3';
import { createConnection } from 'mysql2/promise';
import pg from 'pg';

export interface Article {
  readonly id: number;
  readonly title: string;
  readonly published_at: string;
}

/** DRF's duplicate-heavy shape: five days for 25 rows, so every page boundary splits a tie. */
const DAYS = [3, 1, 3, 2, 3, 5, 3, 3, 4, 1];
export const ARTICLES: readonly Article[] = Array.from({ length: 25 }, (_, i) => ({
  id: i + 1,
  title: `Article ${i + 1}`,
  published_at: `2024-01-0${DAYS[i % DAYS.length]}T10:00:00.000Z`,
}));

/** The ids in the feed's order: newest first, the unique key descending within a tie. */
export const FEED_ORDER: readonly number[] = [...ARTICLES]
  .sort((a, b) => b.published_at.localeCompare(a.published_at) || b.id - a.id)
  .map((article) => article.id);

/** A database an app reads through `DATABASE_URL`, or the reason there is none here. */
export interface FeedDatabase {
  readonly url: string | null;
  readonly skipReason: string | null;
  close(): Promise<void>;
}

const unique = `outside_apps_${process.pid.toString(36)}`;

export function sqliteFeed(dir: string): FeedDatabase {
  const file = join(dir, 'articles.sqlite');
  const db = new Database(file);
  db.exec(
    'create table articles (id integer primary key, title text not null, published_at text not null);' +
      'create index articles_published_at on articles (published_at, id);',
  );
  const insert = db.prepare('insert into articles (id, title, published_at) values (?, ?, ?)');
  for (const a of ARTICLES) insert.run(a.id, a.title, a.published_at);
  db.close();
  return { url: file, skipReason: null, close: async () => {} };
}

async function seedPostgres(client: pg.Client, schema: string): Promise<void> {
  await client.query(`create schema if not exists ${schema}`);
  await client.query(
    `create table ${schema}.articles (id integer primary key, title text not null, published_at timestamptz not null)`,
  );
  await client.query(`create index on ${schema}.articles (published_at, id)`);
  await client.query(
    `insert into ${schema}.articles select * from json_populate_recordset(null::${schema}.articles, $1)`,
    [JSON.stringify(ARTICLES)],
  );
}

/**
 * PG_URL's server with a schema of this run's own (the app's URL selects it through the
 * `options` startup parameter); without PG_URL, PGlite behind a local socket speaking the wire
 * protocol, so the app's `pg` pool is the same either way.
 */
export async function postgresFeed(): Promise<FeedDatabase> {
  const pgUrl = process.env.PG_URL;
  if (pgUrl) {
    const client = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 5_000 });
    await client.connect();
    await seedPostgres(client, unique);
    const url = new URL(pgUrl);
    url.searchParams.set('options', `-c search_path=${unique}`);
    return {
      url: url.href,
      skipReason: null,
      close: async () => {
        await client.query(`drop schema if exists ${unique} cascade`);
        await client.end();
      },
    };
  }
  console.warn('PG_URL is not set: the Hono app reads PGlite through a local Postgres socket');
  const db = await PGlite.create();
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 4 });
  await server.start();
  const address = server.getServerConn();
  const client = new pg.Client({ connectionString: `postgres://postgres@${address}/postgres` });
  await client.connect();
  await seedPostgres(client, 'public');
  await client.end();
  return {
    url: `postgres://postgres@${address}/postgres`,
    skipReason: null,
    close: async () => {
      await server.stop();
      await db.close();
    },
  };
}

/** MYSQL_URL's server with a database of this run's own; without MYSQL_URL, none. */
export async function mariadbFeed(): Promise<FeedDatabase> {
  const mysqlUrl = process.env.MYSQL_URL;
  if (!mysqlUrl) return { url: null, skipReason: 'MYSQL_URL is not set', close: async () => {} };
  const connection = await createConnection({ uri: mysqlUrl, connectTimeout: 5_000 });
  await connection.query(`create database if not exists ${unique}`);
  await connection.query(
    `create table ${unique}.articles (id integer primary key, title text not null, published_at datetime(3) not null, index (published_at, id))`,
  );
  await connection.query(`insert into ${unique}.articles (id, title, published_at) values ?`, [
    ARTICLES.map((a) => [a.id, a.title, a.published_at.replace('T', ' ').replace('Z', '')]),
  ]);
  const url = new URL(mysqlUrl);
  url.pathname = `/${unique}`;
  return {
    url: url.href,
    skipReason: null,
    close: async () => {
      await connection.query(`drop database if exists ${unique}`);
      await connection.end();
    },
  };
}
