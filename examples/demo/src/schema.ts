import type { Generated } from 'kysely';

/** Authors: a small table, served unpaginated. */
export interface AuthorTable {
  id: Generated<number>;
  name: string;
  email: string;
}

/**
 * Articles. `published_at` repeats (many articles share a minute), `rating` is nullable: the
 * two things that break naive cursor pagination. SQLite stores `published_at` as ISO-8601 text,
 * which sorts like the instant it names; Postgres as `timestamptz`.
 */
export interface ArticleTable {
  id: Generated<number>;
  title: string;
  body: string;
  author_id: number;
  published_at: Date | string;
  rating: number | null;
}

export interface DemoDatabase {
  authors: AuthorTable;
  articles: ArticleTable;
}
