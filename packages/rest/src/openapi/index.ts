// the OpenAPI document builder and the schema pieces paginators return.
export {
  buildOpenApiDocument,
  nullableType,
  type OpenApiDocumentOptions,
  type OpenApiOperation,
} from './openapi-document.js';
export type {
  OperationInfo,
  RoutesDocumentOptions,
  RoutesLike,
  SecurityRequirement,
} from './routes-document.js';
export {
  isPerVersionSchema,
  type PerVersionSchema,
  perVersion,
  type SchemaConverter,
  type SchemaInput,
  type SchemaOutput,
  type StandardSchemaV1,
  schemaToJson,
  type ViewSchema,
} from './schema-source.js';
export {
  integerQueryParameter,
  type JsonSchema,
  nullableUri,
  type OpenApiParameter,
  type OpenApiVersion,
  type SchemaOptions,
} from './schema-types.js';
export {
  type DescribedHandler,
  type DescribedOperation,
  describedLike,
  describerOf,
  describeWith,
  type OperationMethod,
  type SchemaPagination,
  type SchemaVersioning,
  type VersionLocation,
  type ViewDescriber,
  type ViewDescription,
  type ViewSchemaContext,
} from './view-description.js';
