import { ConfigurationError } from '@pagewise/core';
import type { VersionBundle } from '../version-bundle.js';
import { isPerVersionSchema, type SchemaConverter, type SchemaInput, schemaToJson } from './schema-source.js';
import type { JsonSchema, OpenApiParameter, OpenApiVersion } from './schema-types.js';
import {
  type DescribedOperation,
  describerOf,
  type OperationMethod,
  type SchemaVersioning,
  type ViewDescription,
} from './view-description.js';

/** The routes the document walks: a `Routes` table fits. */
export interface RoutesLike {
  readonly routes: ReadonlyArray<{
    readonly pattern: string;
    readonly name: string | null;
    readonly namespace: string | null;
    readonly params: readonly string[];
    readonly handler: unknown;
  }>;
}

/** An OpenAPI security requirement: scheme name to scopes (`{ tokenAuth: [] }`). */
export type SecurityRequirement = Readonly<Record<string, readonly string[]>>;

/** What the naming and security options are told about one operation. */
export interface OperationInfo {
  /** The OpenAPI path (`/v2/articles/{id}/`). */
  readonly path: string;
  readonly method: OperationMethod;
  /** `list`, `retrieve`, `create`, ... or the method of a plain view. */
  readonly action: string;
  /** The route's name (`article-detail`), `null` when unnamed. */
  readonly routeName: string | null;
  readonly namespace: string | null;
  /** The document's version, `null` for a document of every version. */
  readonly version: string | null;
}

/** Options of `buildOpenApiDocument(routes, options)`. */
export interface RoutesDocumentOptions {
  /** The API version to document: only its routes and item shapes. @default null (every version) */
  readonly version?: string | null;
  /** @default '3.1' */
  readonly openapi?: OpenApiVersion;
  /** @default 'API' */
  readonly title?: string;
  readonly description?: string;
  /** `info.version`. @default the `version` option, else '1.0.0' */
  readonly infoVersion?: string;
  /** `info.license`, e.g. `{ name: 'MIT', identifier: 'MIT' }` (3.1) or `{ name: 'MIT', url: '...' }`. */
  readonly license?: { readonly name: string; readonly url?: string; readonly identifier?: string };
  readonly contact?: { readonly name?: string; readonly url?: string; readonly email?: string };
  /**
   * Servers; `{version}` in a URL is replaced by the document's version (host versioning:
   * `https://{version}.api.example.org`), or kept as a server variable in a document of every version.
   */
  readonly servers?: ReadonlyArray<{ readonly url: string; readonly description?: string }>;
  /** `components.securitySchemes`, e.g. `{ tokenAuth: { type: 'apiKey', in: 'header', name: 'Authorization' } }`. */
  readonly securitySchemes?: Readonly<Record<string, JsonSchema>>;
  /** The document's default security requirements. */
  readonly security?: readonly SecurityRequirement[];
  /** Security of one operation (`[]`: public); `undefined` keeps the document's default. */
  readonly operationSecurity?: (operation: OperationInfo) => readonly SecurityRequirement[] | undefined;
  /** Tag declarations (their descriptions); operations are tagged by their first path segment. */
  readonly tags?: ReadonlyArray<{ readonly name: string; readonly description?: string }>;
  /** Tags of one operation. @default the first path segment after the version (`articles`) */
  readonly operationTags?: (operation: OperationInfo) => readonly string[];
  /** @default camelCase of the route name (without `-list`/`-detail`) and the action: `articleList`, `articleRetrieve` */
  readonly operationId?: (operation: OperationInfo) => string;
  /** Turns Standard Schemas without the JSON Schema extension into JSON Schema. */
  readonly schemaConverter?: SchemaConverter;
}

const ERROR: JsonSchema = {
  type: 'object',
  required: ['detail'],
  properties: { detail: { type: 'string', example: 'Not found.' } },
};
const FIELD_ERRORS: JsonSchema = {
  type: 'object',
  description: 'Field errors: each field names its messages.',
  additionalProperties: { type: 'array', items: { type: 'string' } },
};
const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const COMPONENT_NAME = /^[A-Za-z0-9._-]+$/;
const ACTION_LABELS: Readonly<Record<string, string>> = {
  list: 'list',
  retrieve: 'retrieve one',
  create: 'create',
  update: 'replace',
  partialUpdate: 'update some fields of',
  destroy: 'delete',
};

function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
}
const pascal = (text: string) =>
  words(text)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
const camel = (text: string) => {
  const name = pascal(text);
  return name[0] ? name[0].toLowerCase() + name.slice(1) : name;
};

/** The route name without a router's `-list`/`-detail` suffix. */
const baseName = (name: string) => name.replace(/-(list|detail)$/, '');

function defaultOperationId(info: OperationInfo): string {
  const namespace = (info.namespace ?? '').split(':').filter((part) => part && part !== info.version);
  const name = info.routeName ? baseName(info.routeName) : info.path;
  return camel([...namespace, name, info.action].join(' ')) || info.method;
}

/** `/:version/articles/:id([^/.]+)/` to its OpenAPI template pieces. */
/** A pattern ending in a `.:format` parameter (and an optional slash): a suffixed twin. */
const FORMAT_SUFFIXED = /\.:format(?:\((?:\\.|[^)])*\))?\/?\??$/;

function templatePath(pattern: string): string {
  return pattern.replace(/:([A-Za-z_][A-Za-z0-9_]*)(\((?:\\.|[^)])*\))?/g, '{$1}');
}

/** Collects named item schemas, the same schema once, distinct schemas under distinct names. */
class Components {
  readonly schemas = new Map<string, JsonSchema>();
  readonly #byContent = new Map<string, string>();

  add(name: string, schema: JsonSchema): string {
    const key = JSON.stringify(schema);
    const known = this.#byContent.get(key);
    if (known) return known;
    let unique = name;
    for (let n = 2; this.schemas.has(unique); n += 1) unique = `${name}${n}`;
    this.schemas.set(unique, schema);
    this.#byContent.set(key, unique);
    return unique;
  }
}

/** Makes `next` and `previous` required: every built-in style always sends them (as `null` at the ends). */
function requireLinks(schema: JsonSchema): JsonSchema {
  const properties = schema.properties as Record<string, unknown> | undefined;
  if (schema.type !== 'object' || !properties) return schema;
  const required = new Set([...((schema.required as string[] | undefined) ?? [])]);
  for (const link of ['next', 'previous']) if (link in properties) required.add(link);
  return { ...schema, required: Object.keys(properties).filter((key) => required.has(key)) };
}

interface Context {
  readonly version: string | null;
  readonly openapi: OpenApiVersion;
  readonly options: RoutesDocumentOptions;
  readonly components: Components;
  readonly versions: Set<string>;
  readonly operationIds: Set<string>;
  readonly tags: Set<string>;
  usesFieldErrors: boolean;
}

/** The bundle version serving the document's version (a date between two: the earlier one). */
function bundleVersion(bundle: VersionBundle, version: string): string {
  const served = bundle.resolve(version);
  if (served === null) {
    throw new ConfigurationError(
      `The version bundle serves no version ${version} (it has ${bundle.versions.join(', ')})`,
    );
  }
  return served;
}

/** A list's body schema through the bundle's `envelopeSchema` changes, for a document of one version. */
function listEnvelope(schema: JsonSchema, versioning: SchemaVersioning | null, context: Context): JsonSchema {
  const bundle = versioning?.versionBundle ?? null;
  if (bundle === null || context.version === null) return schema;
  return bundle.convertEnvelopeSchema(schema, {
    version: bundleVersion(bundle, context.version),
    openapi: context.openapi,
  });
}

function itemSchema(
  operation: DescribedOperation,
  fallbackName: string,
  versioning: SchemaVersioning | null,
  context: Context,
): JsonSchema {
  const schema = operation.schema;
  if (schema === undefined) return {};
  const add = (json: JsonSchema, suffix: string): JsonSchema => {
    const title = typeof json.title === 'string' && COMPONENT_NAME.test(json.title) ? json.title : null;
    return ref(context.components.add(`${title ?? fallbackName}${suffix}`, json));
  };
  const named = (input: SchemaInput, suffix: string): JsonSchema =>
    add(schemaToJson(input, context.openapi, context.options.schemaConverter), suffix);
  const bundle = versioning?.versionBundle ?? null;
  if (bundle && !isPerVersionSchema(schema)) {
    // The newest version's schema, through the chain to each version.
    const newest = schemaToJson(schema, context.openapi, context.options.schemaConverter);
    const at = (version: string) =>
      bundle.convertSchema(newest, { version: bundleVersion(bundle, version), openapi: context.openapi });
    if (context.version !== null) return add(at(context.version), '');
    // A schema no change touches is one component, named as it would be without a bundle.
    const first = JSON.stringify(at(bundle.newest));
    if (bundle.versions.every((version) => JSON.stringify(at(version)) === first)) return add(newest, '');
    const refs = [
      ...new Map(
        bundle.versions.map((version) => {
          const entry = add(at(version), pascal(version));
          return [entry.$ref, entry] as const;
        }),
      ).values(),
    ];
    return refs.length === 1 ? refs[0]! : { oneOf: refs };
  }
  if (!isPerVersionSchema(schema)) return named(schema, '');
  if (context.version !== null) {
    const chosen = schema.versions[context.version];
    if (chosen === undefined) {
      throw new ConfigurationError(
        `The view of ${fallbackName} has no schema for version ${context.version} (perVersion names ${Object.keys(schema.versions).join(', ')})`,
      );
    }
    return named(chosen, '');
  }
  return { oneOf: Object.entries(schema.versions).map(([version, input]) => named(input, pascal(version))) };
}

function versionParameter(
  versioning: SchemaVersioning,
  location: 'path' | 'query' | 'header',
  context: Context,
): OpenApiParameter {
  const versions = context.version !== null ? [context.version] : versioning.versions;
  return {
    name: versioning.param,
    in: location,
    required:
      location === 'path' || (context.version !== null && context.version !== versioning.defaultVersion),
    description: 'API version.',
    schema: { type: 'string', ...(versions.length > 0 ? { enum: [...versions] } : {}) },
  };
}

function errorResponse(description: string, mediaType: string, schema: JsonSchema = ref('Error')) {
  return { description, content: { [mediaType]: { schema } } };
}

function describeOperation(
  operation: DescribedOperation,
  view: ViewDescription,
  route: RoutesLike['routes'][number],
  path: string,
  pathParameters: readonly OpenApiParameter[],
  context: Context,
): Record<string, unknown> {
  const versioning = view.versioning;
  const { version, openapi, options } = context;
  const info: OperationInfo = {
    path,
    method: operation.method,
    action: operation.action,
    routeName: route.name,
    namespace: route.namespace,
    version,
  };
  const mediaType =
    versioning?.location === 'accept' && version !== null
      ? `application/json; ${versioning.param}=${version}`
      : 'application/json';
  const fallbackName = pascal(route.name ? baseName(route.name) : path) || 'Item';
  const item = itemSchema(operation, fallbackName, versioning, context);
  const pagination = operation.list ? operation.pagination : null;
  const itemProperties = resolveProperties(item, context);
  const parameters: OpenApiParameter[] = [
    ...pathParameters.map((parameter) => typedLookup(parameter, itemProperties, versioning)),
    ...(versioning?.location === 'query' ? [versionParameter(versioning, 'query', context)] : []),
    ...(versioning?.location === 'header' ? [versionParameter(versioning, 'header', context)] : []),
    ...(pagination?.getSchemaOperationParameters() ?? []),
    ...(operation.list ? operation.parameters : []),
  ];
  const body = operation.list ? { type: 'array', items: item } : item;
  const responses: Record<string, unknown> = {};
  const success =
    operation.status === 204
      ? 'No content.'
      : `${view.title}: ${ACTION_LABELS[operation.action] ?? operation.action}.`;
  responses[String(operation.status)] =
    operation.status === 204
      ? { description: success }
      : {
          description: success,
          content: {
            [mediaType]: {
              schema: listEnvelope(
                pagination ? requireLinks(pagination.getPaginatedResponseSchema(body, { openapi })) : body,
                operation.list ? versioning : null,
                context,
              ),
            },
          },
        };
  if (operation.requestBody) {
    context.usesFieldErrors = true;
    responses['400'] = errorResponse('Invalid data: field errors, or a body that is not JSON.', mediaType, {
      oneOf: [ref('Error'), ref('FieldErrors')],
    });
  } else if (operation.list && operation.parameters.length > 0) {
    responses['400'] = errorResponse('Invalid query parameters.', mediaType);
  }
  const notFound = [
    ...(pathParameters.some((p) => p.name !== versioning?.param) ? ['no such item'] : []),
    ...(pagination ? ['an invalid page or cursor'] : []),
    // A document of one version names it in the path, namespace or host: only the query may still be wrong.
    ...(versioning &&
    versioning.location !== 'accept' &&
    versioning.location !== null &&
    (version === null || versioning.location === 'query' || versioning.location === 'header')
      ? ['an invalid version']
      : []),
  ];
  if (notFound.length > 0) responses['404'] = errorResponse(`Not found: ${notFound.join(', ')}.`, mediaType);
  responses['406'] = errorResponse(
    versioning?.location === 'accept'
      ? 'Not acceptable: no renderer for the Accept header, or an invalid version in it.'
      : 'Not acceptable: no renderer for the Accept header.',
    mediaType,
  );
  for (const [status, description] of Object.entries(operation.errors)) {
    responses[status] = errorResponse(description, mediaType);
  }
  let requestBody: Record<string, unknown> | undefined;
  if (operation.requestBody) {
    const fields = operation.requestBody.fields;
    const schema: Record<string, unknown> =
      fields === null
        ? { type: 'object' }
        : {
            type: 'object',
            properties: Object.fromEntries(fields.map((field) => [field, itemProperties[field] ?? {}])),
            ...(operation.requestBody.partial || fields.length === 0 ? {} : { required: [...fields] }),
          };
    // The newest version's body, through the chain: an older version's body has its names.
    const bundle = versioning?.versionBundle ?? null;
    const converted =
      bundle && version !== null && fields !== null
        ? bundle.convertSchema(schema, { version: bundleVersion(bundle, version), openapi })
        : schema;
    requestBody = { required: true, content: { 'application/json': { schema: converted } } };
  }
  const operationId = uniqueName((options.operationId ?? defaultOperationId)(info), context.operationIds);
  const tags = options.operationTags?.(info) ?? defaultTags(path, versioning, context);
  for (const tag of tags) context.tags.add(tag);
  const security = options.operationSecurity?.(info);
  const deprecated = version !== null && versioning?.deprecated(version) === true;
  return {
    operationId,
    summary: `${view.title}: ${ACTION_LABELS[operation.action] ?? operation.action}`,
    ...(view.description ? { description: view.description } : {}),
    ...(tags.length > 0 ? { tags: [...tags] } : {}),
    ...(deprecated ? { deprecated: true } : {}),
    ...(security !== undefined ? { security: security.map((entry) => ({ ...entry })) } : {}),
    parameters,
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
}

/** A path parameter naming a field of the item (the lookup, `id`) takes that field's scalar type. */
function typedLookup(
  parameter: OpenApiParameter,
  properties: Record<string, unknown>,
  versioning: SchemaVersioning | null,
): OpenApiParameter {
  if (parameter.name === versioning?.param) return parameter;
  const type = (properties[parameter.name] as { type?: unknown } | undefined)?.type;
  return type === 'integer' || type === 'number' ? { ...parameter, schema: { type } } : parameter;
}

function resolveProperties(schema: JsonSchema, context: Context): Record<string, unknown> {
  const target =
    typeof schema.$ref === 'string'
      ? context.components.schemas.get(schema.$ref.slice('#/components/schemas/'.length))
      : schema;
  return ((target?.properties as Record<string, unknown> | undefined) ?? {}) as Record<string, unknown>;
}

function uniqueName(name: string, used: Set<string>): string {
  let unique = name;
  for (let n = 2; used.has(unique); n += 1) unique = `${name}${n}`;
  used.add(unique);
  return unique;
}

function defaultTags(path: string, versioning: SchemaVersioning | null, context: Context): string[] {
  const skip = new Set([...(versioning?.versions ?? []), ...(context.version ? [context.version] : [])]);
  const segment = path.split('/').find((part) => part !== '' && !part.startsWith('{') && !skip.has(part));
  return [segment ?? 'api'];
}

function substituteServers(options: RoutesDocumentOptions, context: Context): unknown[] | undefined {
  if (!options.servers) return undefined;
  return options.servers.map((server) => {
    if (!server.url.includes('{version}')) return { ...server };
    if (context.version !== null)
      return { ...server, url: server.url.replaceAll('{version}', context.version) };
    const versions = [...context.versions];
    return {
      ...server,
      variables: {
        version: { default: versions[0] ?? 'v1', ...(versions.length > 0 ? { enum: versions } : {}) },
      },
    };
  });
}

/** `buildOpenApiDocument(routes, options)`: see there. */
export function buildRoutesDocument(routes: RoutesLike, options: RoutesDocumentOptions): JsonSchema {
  const version = options.version ?? null;
  const openapi = options.openapi ?? '3.1';
  const context: Context = {
    version,
    openapi,
    options,
    components: new Components(),
    versions: new Set(),
    operationIds: new Set(),
    tags: new Set(),
    usesFieldErrors: false,
  };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes.routes) {
    // DRF's schema generator ignores ".json" style URLs (`formatSuffixPatterns`' twins).
    if (FORMAT_SUFFIXED.test(route.pattern)) continue;
    const describer = describerOf(route.handler);
    if (!describer) continue;
    const view = describer({ namespace: route.namespace });
    const versioning = view.versioning;
    for (const known of versioning?.versions ?? []) context.versions.add(known);
    if (version !== null && versioning !== null && versioning.location !== null) {
      // A bundle documents a date between two of its versions as the earlier one.
      const documented = versioning.versionBundle?.resolve(version) ?? version;
      if (versioning.versions.length > 0 && !versioning.versions.includes(documented)) continue;
      if (
        versioning.location === 'namespace' &&
        (versioning.routeVersion ?? versioning.defaultVersion) !== version
      )
        continue;
    }
    let path = templatePath(route.pattern);
    const pathParameters: OpenApiParameter[] = [];
    for (const param of route.params) {
      if (versioning?.location === 'path' && param === versioning.param) {
        if (version !== null) {
          path = path.replace(`{${param}}`, version);
          continue;
        }
        pathParameters.push(versionParameter(versioning, 'path', context));
        continue;
      }
      pathParameters.push({
        name: param,
        in: 'path',
        required: true,
        description: '',
        schema: { type: 'string' },
      });
    }
    for (const operation of view.operations) {
      paths[path] ??= {};
      if (paths[path]![operation.method]) continue;
      paths[path]![operation.method] = describeOperation(
        operation,
        view,
        route,
        path,
        pathParameters,
        context,
      );
    }
  }
  const declared = new Map((options.tags ?? []).map((tag) => [tag.name, tag] as const));
  const tags = [...new Set([...declared.keys(), ...context.tags])].map((name) => ({
    name,
    ...(declared.get(name)?.description ? { description: declared.get(name)!.description } : {}),
  }));
  const servers = substituteServers(options, context);
  const schemas: Record<string, JsonSchema> = {
    ...Object.fromEntries(context.components.schemas),
    Error: ERROR,
    ...(context.usesFieldErrors ? { FieldErrors: FIELD_ERRORS } : {}),
  };
  const license = options.license
    ? openapi === '3.0'
      ? { name: options.license.name, ...(options.license.url ? { url: options.license.url } : {}) }
      : { ...options.license }
    : undefined;
  return {
    openapi: openapi === '3.1' ? '3.1.0' : '3.0.3',
    info: {
      title: options.title ?? 'API',
      version: options.infoVersion ?? version ?? '1.0.0',
      ...(options.description ? { description: options.description } : {}),
      ...(options.contact ? { contact: { ...options.contact } } : {}),
      ...(license ? { license } : {}),
    },
    ...(servers ? { servers } : {}),
    ...(options.security ? { security: options.security.map((entry) => ({ ...entry })) } : {}),
    ...(tags.length > 0 ? { tags } : {}),
    paths,
    components: {
      schemas,
      ...(options.securitySchemes ? { securitySchemes: { ...options.securitySchemes } } : {}),
    },
  };
}
