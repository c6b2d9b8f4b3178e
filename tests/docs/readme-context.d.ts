// What the README examples take as given: the reader's database, request and helpers, and the
// classes another part of the same README defines. Each example is compiled as its own module with
// these globals; Pagewise names it uses without importing are imported for it.
import type { ApiRequest, ApiSettings, RouteHandler, Routes } from '@pagewise/rest';
import { CursorPagination } from '@pagewise/rest';
import type { Express } from 'express';
import type { FastifyInstance } from 'fastify';
import type { Hono } from 'hono';
import type { Kysely } from 'kysely';

interface ArticleTable {
  id: number;
  title: string;
  content: string;
  published: boolean;
  published_at: Date;
  created: Date;
  rating: number | null;
  author_id: number;
}

interface AuthorTable {
  id: number;
  name: string;
}

declare global {
  /** The reader's Kysely instance. */
  const db: Kysely<{ articles: ArticleTable; authors: AuthorTable }>;
  /** The request being answered. */
  const request: ApiRequest;
  /** The reader's row serializer. */
  function serialize(row: object): Record<string, unknown>;
  /** Defined in the README's versioning section. */
  const settings: ApiSettings;
  /** A cursor style the README configures elsewhere. */
  class ArticleFeed extends CursorPagination {}
  /** A detail view the README does not show. */
  const ArticleDetail: { asView(): RouteHandler };
  /** The list view of the README's per-route handler examples. */
  const articleList: RouteHandler;
  /** The routes of the README's list view section. */
  const routes: Routes;
  const honoApp: Hono;
  const expressApp: Express;
  const fastify: FastifyInstance;
  const http: typeof import('node:http');
  const Deno: { serve(handler: (request: Request) => Response | Promise<Response>): unknown };
}
