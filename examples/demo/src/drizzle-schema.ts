import { integer as pgInteger, pgTable, text as pgText, serial, timestamp } from 'drizzle-orm/pg-core';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

// The demo's articles table in Drizzle's schema, for `ORM=drizzle`: the same table the Kysely side
// creates and seeds, its TypeScript keys the SQL names, so rows, orderings and links are the
// Kysely side's. Drizzle's default modes: `published_at` a `Date` on Postgres, ISO text on SQLite.

/** The articles table on SQLite. */
export const sqliteArticles = sqliteTable('articles', {
  id: integer('id').primaryKey(),
  title: text('title').notNull(),
  body: text('body').notNull(),
  author_id: integer('author_id').notNull(),
  published_at: text('published_at').notNull(),
  rating: integer('rating'),
});

/** The articles table on Postgres. */
export const pgArticles = pgTable('articles', {
  id: serial('id').primaryKey(),
  title: pgText('title').notNull(),
  body: pgText('body').notNull(),
  author_id: pgInteger('author_id').notNull(),
  published_at: timestamp('published_at', { withTimezone: true }).notNull(),
  rating: pgInteger('rating'),
});
