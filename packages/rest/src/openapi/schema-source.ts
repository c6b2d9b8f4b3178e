import { ConfigurationError } from '@pagewise/core';
import type { JsonSchema, OpenApiVersion } from './schema-types.js';

/**
 * The Standard Schema interface (https://standardschema.dev), as far as Pagewise reads it:
 * Zod, Valibot, ArkType and others implement it. `jsonSchema` is the Standard JSON Schema
 * extension (Zod 4 has it), which the document builder uses to emit the item schema.
 *
 * @example
 * const Article: StandardSchemaV1<unknown, { id: number }> = z.object({ id: z.number() });
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => unknown;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
    readonly jsonSchema?:
      | { readonly output: (options: { readonly target: string }) => Record<string, unknown> }
      | undefined;
  };
}

/**
 * What a view's `schema` may be: a JSON Schema object, or any Standard Schema.
 *
 * @example
 * const schema: SchemaInput = { type: 'object', properties: { id: { type: 'integer' } } };
 */
export type SchemaInput = JsonSchema | StandardSchemaV1;

const PER_VERSION = Symbol.for('@pagewise/core.perVersion');

/**
 * One schema per API version, made by `perVersion`.
 *
 * @example
 * const Article: PerVersionSchema<{ v1: typeof ArticleV1; v2: typeof ArticleV2 }> = perVersion({ v1: ArticleV1, v2: ArticleV2 });
 */
export interface PerVersionSchema<M extends Readonly<Record<string, SchemaInput>>> {
  readonly [PER_VERSION]: true;
  readonly versions: Readonly<M>;
}

/**
 * Item schemas that differ by version: the document of `v2` shows only `versions.v2`, and the
 * serializer's output type is the union of them all.
 *
 * @example
 * ListView.asView({ queryset, schema: perVersion({ v1: ArticleV1, v2: ArticleV2 }), serializer })
 */
export function perVersion<const M extends Readonly<Record<string, SchemaInput>>>(
  versions: M,
): PerVersionSchema<M> {
  return Object.freeze({ [PER_VERSION]: true as const, versions: Object.freeze({ ...versions }) });
}

/**
 * What a view's `schema` option takes: one schema, or one per version (`perVersion`).
 *
 * @example
 * const schema: ViewSchema = perVersion({ v1: ArticleV1, v2: ArticleV2 });
 */
export type ViewSchema = SchemaInput | PerVersionSchema<Readonly<Record<string, SchemaInput>>>;

/**
 * Whether `schema` was made by `perVersion`.
 * @example
 * isPerVersionSchema(perVersion({ v1: {} })) // true
 */
export function isPerVersionSchema(
  schema: unknown,
): schema is PerVersionSchema<Readonly<Record<string, SchemaInput>>> {
  return typeof schema === 'object' && schema !== null && PER_VERSION in schema;
}

/**
 * The TypeScript type of what a schema describes: a Standard Schema's output type, the union
 * of a `perVersion` schema's outputs, `unknown` for a JSON Schema.
 *
 * @example
 * type Article = SchemaOutput<typeof ArticleSchema>; // z.output<typeof ArticleSchema>
 */
export type SchemaOutput<S> =
  S extends PerVersionSchema<infer M>
    ? { [K in keyof M]: SchemaOutput<M[K]> }[keyof M]
    : S extends StandardSchemaV1<unknown, infer O>
      ? O
      : unknown;

/**
 * Turns a Standard Schema into JSON Schema for the document, when its library cannot do so
 * through the Standard JSON Schema extension (e.g. `toJsonSchema` of `@valibot/to-json-schema`).
 *
 * @example
 * const converter: SchemaConverter = (schema) => toJsonSchema(schema as never);
 */
export type SchemaConverter = (
  schema: StandardSchemaV1,
  options: { readonly openapi: OpenApiVersion },
) => JsonSchema;

function isStandardSchema(schema: unknown): schema is StandardSchemaV1 {
  return (
    (typeof schema === 'object' || typeof schema === 'function') && schema !== null && '~standard' in schema
  );
}

/**
 * Rewrites nullability to the dialect: 3.1 `type: [T, 'null']` becomes 3.0 `type: T, nullable: true`
 * and back, recursively, so a JSON Schema written for one dialect serves both.
 * @example
 * toDialect({ type: ['integer', 'null'] }, '3.0') // { type: 'integer', nullable: true }
 */
export function toDialect(schema: unknown, version: OpenApiVersion): unknown {
  if (Array.isArray(schema)) return schema.map((entry) => toDialect(entry, version));
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema') continue;
    out[key] =
      key === 'properties' || key === '$defs' || key === 'definitions'
        ? mapValues(value, version)
        : toDialect(value, version);
  }
  if (version === '3.0' && Array.isArray(out.type)) {
    const types = (out.type as unknown[]).filter((type) => type !== 'null');
    if (types.length === 1) {
      out.type = types[0];
      if (types.length < (schema as { type: unknown[] }).type.length) out.nullable = true;
    }
  } else if (version === '3.1' && out.nullable === true && typeof out.type === 'string') {
    out.type = [out.type, 'null'];
    delete out.nullable;
  }
  return out;
}

function mapValues(value: unknown, version: OpenApiVersion): unknown {
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, toDialect(entry, version)]));
}

/**
 * The JSON Schema of one schema input in the document's dialect: a JSON Schema as given (its
 * nullability rewritten for the dialect), a Standard Schema through `converter`, else through its
 * Standard JSON Schema extension (`draft-2020-12` for 3.1, `openapi-3.0` for 3.0).
 *
 * @example
 * schemaToJson(z.object({ id: z.number().int() }), '3.1') // { type: 'object', properties: { id: { type: 'integer', ... } }, ... }
 */
export function schemaToJson(
  schema: SchemaInput,
  version: OpenApiVersion,
  converter?: SchemaConverter,
): JsonSchema {
  if (!isStandardSchema(schema)) return toDialect(schema, version) as JsonSchema;
  if (converter) return toDialect(converter(schema, { openapi: version }), version) as JsonSchema;
  const standard = schema['~standard'];
  if (typeof standard.jsonSchema?.output !== 'function') {
    throw new ConfigurationError(
      `A ${standard.vendor} schema has no JSON Schema (no ~standard.jsonSchema); pass schemaConverter to buildOpenApiDocument`,
    );
  }
  const json = standard.jsonSchema.output({ target: version === '3.0' ? 'openapi-3.0' : 'draft-2020-12' });
  return toDialect(json, version) as JsonSchema;
}
