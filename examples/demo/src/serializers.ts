import { type ApiRequest, reverse } from '@pagewise/core';
import type { Selectable } from 'kysely';
import type { ArticleTable, AuthorTable } from './schema.js';

export type ArticleRow = Selectable<ArticleTable>;
export type AuthorRow = Selectable<AuthorTable>;

/** SQLite hands timestamps back as ISO text, Postgres as `Date`: answer ISO text either way. */
export function isoTimestamp(value: Date | string): string {
  return typeof value === 'string' ? value : value.toISOString();
}

/** Absolute, version-keeping URL of an author. */
export function authorUrl(id: number, request: ApiRequest): string {
  return reverse('author-detail', { kwargs: { id: String(id) }, request });
}

/** v1: the columns as they are. v2: renamed fields and the author as an object. */
export function serializeArticle(
  article: ArticleRow,
  request: ApiRequest,
  authors: ReadonlyMap<number, AuthorRow>,
): unknown {
  const url = reverse('article-detail', { kwargs: { id: String(article.id) }, request });
  const published = isoTimestamp(article.published_at);
  if (request.version === 'v2') {
    const author = authors.get(article.author_id);
    return {
      id: article.id,
      url,
      headline: article.title,
      content: article.body,
      publishedAt: published,
      rating: article.rating,
      author: {
        id: article.author_id,
        name: author?.name ?? null,
        url: authorUrl(article.author_id, request),
      },
    };
  }
  return {
    id: article.id,
    url,
    title: article.title,
    body: article.body,
    author_id: article.author_id,
    author_url: authorUrl(article.author_id, request),
    published_at: published,
    rating: article.rating,
  };
}

export function serializeAuthor(author: AuthorRow, request: ApiRequest): unknown {
  const url = authorUrl(author.id, request);
  return request.version === 'v2'
    ? { id: author.id, url, displayName: author.name, contact: author.email }
    : { id: author.id, url, name: author.name, email: author.email };
}
