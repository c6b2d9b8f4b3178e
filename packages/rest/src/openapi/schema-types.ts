/** A JSON Schema / OpenAPI schema object. */
export type JsonSchema = { readonly [key: string]: unknown };

/** Which OpenAPI dialect to emit. 3.0 uses `nullable: true`, 3.1 uses `type: [..., 'null']`. */
export type OpenApiVersion = '3.0' | '3.1';

/** Options of `getPaginatedResponseSchema`. */
export interface SchemaOptions {
  /** @default '3.0' (DRF parity) */
  readonly openapi?: OpenApiVersion;
}

/** One OpenAPI operation parameter. */
export interface OpenApiParameter {
  readonly name: string;
  readonly required: boolean;
  readonly in: 'query' | 'path' | 'header';
  readonly description: string;
  readonly schema: JsonSchema;
}

/**
 * A nullable URI string in the requested dialect.
 *
 * @example
 * nullableUri('http://api.example.org/accounts/?page=4', '3.1')
 * // { type: ['string', 'null'], format: 'uri', example: 'http://api.example.org/accounts/?page=4' }
 */
export function nullableUri(example: string, version: OpenApiVersion = '3.0'): JsonSchema {
  return version === '3.1'
    ? { type: ['string', 'null'], format: 'uri', example }
    : { type: 'string', nullable: true, format: 'uri', example };
}

/** A query parameter holding an integer. */
export function integerQueryParameter(name: string, description: string): OpenApiParameter {
  return { name, required: false, in: 'query', description, schema: { type: 'integer' } };
}
