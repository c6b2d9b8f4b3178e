import {
  type BasePagination,
  buildOpenApiDocument,
  type JsonSchema,
  nullableType,
  type OpenApiOperation,
  type OpenApiParameter,
  type OpenApiVersion,
} from '@pagewise/core';
import type { VersioningName } from './versioning.js';

/** The paginators of the list endpoints, as the app configures them. */
export interface DemoPaginators {
  readonly pages: BasePagination;
  readonly offsets: BasePagination;
  readonly feed: BasePagination;
}

function schemas(version: OpenApiVersion): Record<string, JsonSchema> {
  const uri = { type: 'string', format: 'uri' };
  const rating = nullableType('integer', version, { minimum: 1, maximum: 5 });
  return {
    ArticleV1: {
      type: 'object',
      required: ['id', 'url', 'title', 'body', 'author_id', 'author_url', 'published_at', 'rating'],
      properties: {
        id: { type: 'integer' },
        url: uri,
        title: { type: 'string' },
        body: { type: 'string' },
        author_id: { type: 'integer' },
        author_url: uri,
        published_at: { type: 'string', format: 'date-time' },
        rating,
      },
    },
    ArticleV2: {
      type: 'object',
      required: ['id', 'url', 'headline', 'content', 'publishedAt', 'rating', 'author'],
      properties: {
        id: { type: 'integer' },
        url: uri,
        headline: { type: 'string' },
        content: { type: 'string' },
        publishedAt: { type: 'string', format: 'date-time' },
        rating,
        author: {
          type: 'object',
          required: ['id', 'name', 'url'],
          properties: { id: { type: 'integer' }, name: nullableType('string', version), url: uri },
        },
      },
    },
    Author: {
      type: 'object',
      required: ['id', 'url'],
      properties: {
        id: { type: 'integer' },
        url: uri,
        name: { type: 'string' },
        email: { type: 'string' },
        displayName: { type: 'string' },
        contact: { type: 'string' },
      },
    },
  };
}

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/**
 * The demo's OpenAPI document, built from the same paginators the endpoints use. Versions show
 * as a path parameter, a namespace prefix, a query parameter, a host or an `Accept` parameter,
 * as the running scheme reads them.
 */
export function demoOpenApi(
  versioning: VersioningName,
  paginators: DemoPaginators,
  version: OpenApiVersion,
): JsonSchema {
  const ordering: OpenApiParameter = {
    name: 'ordering',
    required: false,
    in: 'query',
    description:
      'Which field to use when ordering the results: published_at, rating, title or id, with - for descending.',
    schema: { type: 'string' },
  };
  const versionQuery: OpenApiParameter = {
    name: 'version',
    required: false,
    in: 'query',
    description: 'API version (v1 or v2).',
    schema: { type: 'string', enum: ['v1', 'v2'] },
  };
  const prefixes =
    versioning === 'path' ? ['/{version}'] : versioning === 'namespace' ? ['/v1', '/v2'] : [''];
  const operations: OpenApiOperation[] = prefixes.flatMap((prefix) => {
    const tag = prefix === '/v2' ? 'v2' : prefix === '/v1' ? 'v1' : 'articles';
    const id = (name: string) => (prefix === '/v1' || prefix === '/v2' ? `${name}${prefix.slice(2)}` : name);
    const article =
      prefix === '/v2'
        ? ref('ArticleV2')
        : prefix === '/v1'
          ? ref('ArticleV1')
          : { oneOf: [ref('ArticleV1'), ref('ArticleV2')] };
    const pathParameters =
      prefix === '/{version}' ? [{ name: 'version', schema: { type: 'string', enum: ['v1', 'v2'] } }] : [];
    const versionFilters = versioning === 'query' ? [versionQuery] : [];
    const list = (
      path: string,
      operationId: string,
      summary: string,
      pagination: BasePagination | null,
      extra: OpenApiParameter[] = [],
    ) => ({
      path: `${prefix}${path}`,
      operationId: id(operationId),
      summary,
      tags: [tag],
      pathParameters,
      list: true,
      pagination,
      filterParameters: [...extra, ...versionFilters],
      itemSchema: path.startsWith('/authors') ? ref('Author') : article,
      errors: { '404': 'Invalid page, cursor or version.' },
    });
    return [
      list('/articles/', 'listArticles', 'Articles, numbered pages', paginators.pages),
      list('/articles/offset/', 'listArticlesByOffset', 'Articles, limit and offset', paginators.offsets),
      list('/articles/feed/', 'articleFeed', 'Articles, newest first, behind cursors', paginators.feed, [
        ordering,
      ]),
      list('/authors/', 'listAuthors', 'All authors, unpaginated', null),
      {
        path: `${prefix}/articles/{id}/`,
        operationId: id('getArticle'),
        summary: 'One article',
        tags: [tag],
        pathParameters: [...pathParameters, { name: 'id', schema: { type: 'integer' } }],
        filterParameters: versionFilters,
        itemSchema: article,
        errors: { '404': 'No such article.' },
      },
    ];
  });
  return buildOpenApiDocument({
    title: 'Pagewise demo API',
    version: '1.0.0',
    description: `Articles and authors, paged three ways. Versioning scheme: ${versioning}.`,
    openapi: version,
    operations,
    schemas: schemas(version),
  });
}
