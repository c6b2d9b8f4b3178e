// `@pagewise/core/openapi`: the OpenAPI document builder and the schema pieces paginators return.
export {
  buildOpenApiDocument,
  nullableType,
  type OpenApiDocumentOptions,
  type OpenApiOperation,
  type SchemaPagination,
} from './openapi-document.js';
export {
  integerQueryParameter,
  type JsonSchema,
  nullableUri,
  type OpenApiParameter,
  type OpenApiVersion,
  type SchemaOptions,
} from './schema-types.js';
