import { type ApiRequest, perVersion, reverse } from '@pagewise/rest';
import type { Selectable } from 'kysely';
import { z } from 'zod';
import type { ArticleTable, AuthorTable } from './schema.js';

export type ArticleRow = Selectable<ArticleTable>;
export type AuthorRow = Selectable<AuthorTable>;

// Each shape is written once: the OpenAPI documents show it, the serializers are typed by it.
const rating = z.number().int().min(1).max(5).nullable();

/** v1: the columns as they are. */
export const ArticleV1 = z
  .object({
    id: z.number().int(),
    url: z.url(),
    title: z.string(),
    body: z.string(),
    author_id: z.number().int(),
    author_url: z.url(),
    published_at: z.iso.datetime(),
    rating,
  })
  .meta({ title: 'Article' });

/** v2: renamed fields and the author as an object. */
export const ArticleV2 = z
  .object({
    id: z.number().int(),
    url: z.url(),
    headline: z.string(),
    content: z.string(),
    publishedAt: z.iso.datetime(),
    rating,
    author: z.object({ id: z.number().int(), name: z.string().nullable(), url: z.url() }),
  })
  .meta({ title: 'Article' });

export const AuthorV1 = z
  .object({ id: z.number().int(), url: z.url(), name: z.string(), email: z.string() })
  .meta({ title: 'Author' });

export const AuthorV2 = z
  .object({ id: z.number().int(), url: z.url(), displayName: z.string(), contact: z.string() })
  .meta({ title: 'Author' });

/** The item schemas of the article and author views, one per version. */
export const ArticleSchema = perVersion({ v1: ArticleV1, v2: ArticleV2 });
export const AuthorSchema = perVersion({ v1: AuthorV1, v2: AuthorV2 });

export type Article = z.output<typeof ArticleV1> | z.output<typeof ArticleV2>;
export type Author = z.output<typeof AuthorV1> | z.output<typeof AuthorV2>;

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
): Article {
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

/** An article as a version's export writes it: the version's fields without the links. */
export type ExportedArticle =
  | Omit<z.output<typeof ArticleV1>, 'url' | 'author_url'>
  | (Omit<z.output<typeof ArticleV2>, 'url' | 'author'> & { author: { id: number; name: string | null } });

/**
 * The version's serializer for a file rather than a page: the same field names as
 * `serializeArticle` (v2 renames them and nests the author), without the URLs, which an export
 * read offline has no use for.
 */
export function exportArticle(
  article: ArticleRow,
  version: string | null,
  authors: ReadonlyMap<number, AuthorRow>,
): ExportedArticle {
  const published = isoTimestamp(article.published_at);
  if (version === 'v2') {
    return {
      id: article.id,
      headline: article.title,
      content: article.body,
      publishedAt: published,
      rating: article.rating,
      author: { id: article.author_id, name: authors.get(article.author_id)?.name ?? null },
    };
  }
  return {
    id: article.id,
    title: article.title,
    body: article.body,
    author_id: article.author_id,
    published_at: published,
    rating: article.rating,
  };
}

export function serializeAuthor(author: AuthorRow, request: ApiRequest): Author {
  const url = authorUrl(author.id, request);
  return request.version === 'v2'
    ? { id: author.id, url, displayName: author.name, contact: author.email }
    : { id: author.id, url, name: author.name, email: author.email };
}
