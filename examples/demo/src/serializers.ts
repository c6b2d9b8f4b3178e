import { type ApiRequest, reverse, type VersionChangeContext } from '@pagewise/rest';
import type { Selectable } from 'kysely';
import { z } from 'zod';
import type { ArticleTable, AuthorTable } from './schema.js';
import { PATH_VERSIONS } from './versions.js';

export type ArticleRow = Selectable<ArticleTable>;
export type AuthorRow = Selectable<AuthorTable>;

// Each shape is written once: the OpenAPI documents show it, the serializers are typed by it.
const rating = z.number().int().min(1).max(5).nullable();

/** The newest shape of an article (v2, 2026-01-10); versions.ts converts it to the older ones. */
export const Article = z
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

/** The newest shape of an author. */
export const Author = z
  .object({ id: z.number().int(), url: z.url(), displayName: z.string(), contact: z.string() })
  .meta({ title: 'Author' });

export type Article = z.output<typeof Article>;
export type Author = z.output<typeof Author>;

/** SQLite hands timestamps back as ISO text, Postgres as `Date`: answer ISO text either way. */
export function isoTimestamp(value: Date | string): string {
  return typeof value === 'string' ? value : value.toISOString();
}

/** Absolute, version-keeping URL of an author. */
export function authorUrl(id: number, request: ApiRequest): string {
  return reverse('author-detail', { kwargs: { id: String(id) }, request });
}

/** An article in the newest shape: every older version is this through the version changes. */
export function serializeArticle(
  article: ArticleRow,
  request: ApiRequest,
  authors: ReadonlyMap<number, AuthorRow>,
): Article {
  return {
    id: article.id,
    url: reverse('article-detail', { kwargs: { id: String(article.id) }, request }),
    headline: article.title,
    content: article.body,
    publishedAt: isoTimestamp(article.published_at),
    rating: article.rating,
    author: {
      id: article.author_id,
      name: authors.get(article.author_id)?.name ?? null,
      url: authorUrl(article.author_id, request),
    },
  };
}

/** An article as a version's export writes it: the version's fields without the links. */
export type ExportedArticle = Readonly<Record<string, unknown>>;

/** What the export leaves out of an item: the links, which a file read offline has no use for. */
const LINKS: ReadonlySet<string> = new Set(['url', 'author_url']);

function withoutLinks(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !LINKS.has(key))
      .map(([key, field]) => [key, withoutLinks(field)]),
  );
}

/**
 * The version's serializer for a file rather than a page: the newest item without the URLs
 * (which a file read offline has no use for), through the path bundle's changes to
 * `context.version` (`v1`: the columns' names and the author flat; `v2`: as it is).
 */
export function exportArticle(
  article: ArticleRow,
  context: VersionChangeContext,
  authors: ReadonlyMap<number, AuthorRow>,
): ExportedArticle {
  const newest = {
    id: article.id,
    headline: article.title,
    content: article.body,
    publishedAt: isoTimestamp(article.published_at),
    rating: article.rating,
    author: { id: article.author_id, name: authors.get(article.author_id)?.name ?? null },
  };
  return withoutLinks(PATH_VERSIONS.convertItem(newest, context)) as ExportedArticle;
}

/** An author in the newest shape. */
export function serializeAuthor(author: AuthorRow, request: ApiRequest): Author {
  return {
    id: author.id,
    url: authorUrl(author.id, request),
    displayName: author.name,
    contact: author.email,
  };
}
