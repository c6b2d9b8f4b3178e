import { buildRoutesDocument, type RoutesDocumentOptions, type RoutesLike } from './routes-document.js';
import type { JsonSchema, OpenApiParameter, OpenApiVersion } from './schema-types.js';
import type { SchemaPagination } from './view-description.js';

/** One operation of an API, described well enough to document it. */
export interface OpenApiOperation {
  /** OpenAPI path template, e.g. `/v1/articles/{id}/`. */
  readonly path: string;
  /** @default 'get' */
  readonly method?: 'get' | 'post' | 'put' | 'patch' | 'delete';
  readonly operationId: string;
  readonly summary?: string;
  readonly tags?: readonly string[];
  /** Parameters captured by the path, in path order. */
  readonly pathParameters?: ReadonlyArray<{ name: string; description?: string; schema: JsonSchema }>;
  /** Filter parameters (an ordering filter's `ordering`, ...), listed after the pagination ones. */
  readonly filterParameters?: readonly OpenApiParameter[];
  /** Schema of one item (or of the whole body for a non-list operation). */
  readonly itemSchema: JsonSchema;
  /** A list operation answers an array of items, wrapped by its paginator when it has one. @default false */
  readonly list?: boolean;
  /** The paginator of a list operation; `null` for an unpaginated list. */
  readonly pagination?: SchemaPagination | null;
  /** Extra response codes and their descriptions, e.g. `{ '404': 'Invalid page.' }`. */
  readonly errors?: Readonly<Record<string, string>>;
}

/** What `buildOpenApiDocument` takes. */
export interface OpenApiDocumentOptions {
  readonly title: string;
  readonly version: string;
  readonly description?: string;
  /** @default '3.1' */
  readonly openapi?: OpenApiVersion;
  readonly servers?: ReadonlyArray<{ url: string; description?: string }>;
  readonly operations: readonly OpenApiOperation[];
  /** Reusable schemas, referenced as `#/components/schemas/<name>`. */
  readonly schemas?: Readonly<Record<string, JsonSchema>>;
}

/**
 * A nullable schema of a primitive type in the requested dialect.
 *
 * @example
 * nullableType('integer', '3.1') // { type: ['integer', 'null'] }
 * nullableType('integer', '3.0') // { type: 'integer', nullable: true }
 */
export function nullableType(type: string, version: OpenApiVersion, extra: JsonSchema = {}): JsonSchema {
  return version === '3.1' ? { type: [type, 'null'], ...extra } : { type, nullable: true, ...extra };
}

const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['detail'],
  properties: { detail: { type: 'string', example: 'Not found.' } },
};

/**
 * An OpenAPI document for `operations`, shaped like DRF's `AutoSchema`: a list operation's
 * parameters are the path parameters, then the paginator's, then the filters'; its 200 response
 * is an array of items passed through the paginator's `getPaginatedResponseSchema`.
 *
 * @example
 * buildOpenApiDocument({
 *   title: 'Demo', version: '1.0.0', openapi: '3.1',
 *   operations: [{ path: '/articles/', operationId: 'listArticles', list: true, pagination, itemSchema }],
 * })
 */
export function buildOpenApiDocument(options: OpenApiDocumentOptions): JsonSchema;
/**
 * The OpenAPI document of a route table, generated from its views: each route's methods (a
 * viewset's actions), path parameters, pagination parameters and paginated envelope, filter
 * parameters, versioning (path, namespace, query, `Accept`, host as servers), item schemas from
 * the views' `schema` (JSON Schema or a Standard Schema such as Zod) and error answers. With
 * `version`, only that version's routes and item shapes.
 *
 * @example
 * const v2 = buildOpenApiDocument(routes, { title: 'Articles API', version: 'v2', openapi: '3.1' });
 */
export function buildOpenApiDocument(routes: RoutesLike, options?: RoutesDocumentOptions): JsonSchema;
export function buildOpenApiDocument(
  first: OpenApiDocumentOptions | RoutesLike,
  options: RoutesDocumentOptions = {},
): JsonSchema {
  if ('operations' in first) return buildOperationsDocument(first);
  return buildRoutesDocument(first, options);
}

function buildOperationsDocument(options: OpenApiDocumentOptions): JsonSchema {
  const version = options.openapi ?? '3.1';
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of options.operations) {
    const pagination = operation.list ? (operation.pagination ?? null) : null;
    const parameters: OpenApiParameter[] = [
      ...(operation.pathParameters ?? []).map((p) => ({
        name: p.name,
        required: true,
        in: 'path' as const,
        description: p.description ?? '',
        schema: p.schema,
      })),
      ...(pagination?.getSchemaOperationParameters() ?? []),
      ...(operation.list ? (operation.filterParameters ?? []) : []),
    ];
    const itemsSchema = operation.list
      ? { type: 'array', items: operation.itemSchema }
      : operation.itemSchema;
    const body = pagination
      ? pagination.getPaginatedResponseSchema(itemsSchema, { openapi: version })
      : itemsSchema;
    const responses: Record<string, unknown> = {
      '200': { description: operation.summary ?? '', content: { 'application/json': { schema: body } } },
    };
    for (const [status, description] of Object.entries(operation.errors ?? {})) {
      responses[status] = { description, content: { 'application/json': { schema: ERROR_SCHEMA } } };
    }
    paths[operation.path] ??= {};
    paths[operation.path]![operation.method ?? 'get'] = {
      operationId: operation.operationId,
      ...(operation.summary ? { summary: operation.summary } : {}),
      ...(operation.tags ? { tags: [...operation.tags] } : {}),
      parameters,
      responses,
    };
  }
  return {
    openapi: version === '3.1' ? '3.1.0' : '3.0.3',
    info: {
      title: options.title,
      version: options.version,
      ...(options.description ? { description: options.description } : {}),
    },
    ...(options.servers ? { servers: options.servers.map((s) => ({ ...s })) } : {}),
    paths,
    ...(options.schemas ? { components: { schemas: { ...options.schemas } } } : {}),
  };
}
