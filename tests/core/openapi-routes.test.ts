import { fromArray } from '@pagewise/memory-adapter';
import {
  AcceptHeaderVersioning,
  ApiSettings,
  apiView,
  buildOpenApiDocument,
  ConfigurationError,
  CursorPagination,
  describedLike,
  HostNameVersioning,
  type JsonSchema,
  ListView,
  ModelViewSet,
  NamespaceVersioning,
  type OpenApiVersion,
  OrderingFilter,
  PageNumberPagination,
  perVersion,
  QueryParameterVersioning,
  ReadOnlyModelViewSet,
  type RouteHandler,
  Routes,
  type SchemaOutput,
  SimpleRouter,
  URLPathVersioning,
  type VersioningClass,
} from '@pagewise/rest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { toJsonSchema, toStandardJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { describe, expect, expectTypeOf, test } from 'vitest';
import { z } from 'zod';

interface Row {
  id: number;
  title: string;
  rating: number | null;
}
const rows: Row[] = [
  { id: 1, title: 'a', rating: 3 },
  { id: 2, title: 'b', rating: null },
];

const ItemV1 = z
  .object({ id: z.number().int(), title: z.string(), rating: z.number().int().nullable() })
  .meta({
    title: 'Item',
  });
const ItemV2 = z.object({ id: z.number().int(), headline: z.string() }).meta({ title: 'Item' });
const ItemSchema = perVersion({ v1: ItemV1, v2: ItemV2 });

const serialize = (row: Row, version: string | null) =>
  version === 'v2'
    ? { id: row.id, headline: row.title }
    : { id: row.id, title: row.title, rating: row.rating };

class ItemPages extends PageNumberPagination {
  override pageSize = 10;
  override pageSizeQueryParam = 'page_size';
}

class ItemViewSet extends ModelViewSet<Row, typeof ItemSchema> {
  override queryset = fromArray(rows);
  override schema = ItemSchema;
  override serializer = (row: Row, { request }: { request: { version: string | null } }) =>
    serialize(row, request.version);
  override paginationClass = ItemPages;
  override writableFields = ['title', 'rating'];
}

/** A feed list and an item viewset under `prefix`, versioned by `versioningClass`. */
function declare(routes: Routes, prefix: string, versioningClass: VersioningClass) {
  const settings = new ApiSettings({ defaultVersioningClass: versioningClass });
  routes.add(
    `${prefix}/feed/`,
    'feed',
    ListView.asView({
      settings,
      title: 'Feed',
      queryset: fromArray(rows),
      schema: ItemSchema,
      serializer: (row, { request }) => serialize(row, request.version),
      paginationClass: class extends CursorPagination {
        override ordering = '-id';
      },
      filterBackends: [new OrderingFilter({ orderingFields: ['id', 'title'] })],
    }),
  );
  new SimpleRouter()
    .register('items', ItemViewSet, { basename: 'item', options: { settings } })
    .addTo(routes, prefix);
  return routes;
}

const options = { allowedVersions: ['v1', 'v2'], defaultVersion: 'v1' };
const schemes = {
  path: () =>
    declare(new Routes(), '/:version', URLPathVersioning.withOptions({ allowedVersions: ['v1', 'v2'] })),
  query: () => declare(new Routes(), '', QueryParameterVersioning.withOptions(options)),
  accept: () => declare(new Routes(), '', AcceptHeaderVersioning.withOptions(options)),
  host: () => declare(new Routes(), '', HostNameVersioning.withOptions(options)),
  namespace: () => {
    const versioning = NamespaceVersioning.withOptions({ allowedVersions: ['v1', 'v2'] });
    return new Routes()
      .include('/v1', 'v1', (v1) => declare(v1, '', versioning))
      .include('/v2', 'v2', (v2) => declare(v2, '', versioning));
  },
};

interface Operation {
  operationId: string;
  deprecated?: boolean;
  parameters: Array<{ name: string; in: string; required: boolean; schema: JsonSchema }>;
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
  security?: unknown[];
}
interface Doc {
  openapi: string;
  servers?: Array<{ url: string; variables?: Record<string, unknown> }>;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema> };
}

const build = (routes: Routes, extra: Parameters<typeof buildOpenApiDocument>[1] = {}) =>
  buildOpenApiDocument(routes, { title: 'Items', ...extra }) as unknown as Doc;

async function expectValid(document: Doc) {
  const result = await new Validator().validate(structuredClone(document) as never);
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
}

describe.each(['3.1', '3.0'] as const)('generated from routes, OpenAPI %s', (openapi: OpenApiVersion) => {
  test('path versioning, one version: its paths, its item shape only, no version parameter', async () => {
    const document = build(schemes.path(), { version: 'v2', openapi });
    await expectValid(document);
    expect(Object.keys(document.paths).sort()).toEqual(['/v2/feed/', '/v2/items/', '/v2/items/{id}/']);
    expect(Object.keys(document.paths['/v2/items/']!).sort()).toEqual(['get', 'post']);
    expect(Object.keys(document.paths['/v2/items/{id}/']!).sort()).toEqual(['delete', 'get', 'patch', 'put']);
    expect(Object.keys(document.components.schemas).sort()).toEqual(['Error', 'FieldErrors', 'Item']);
    expect(Object.keys(document.components.schemas.Item!.properties as object)).toEqual(['id', 'headline']);
    const responses = JSON.stringify(Object.values(document.paths).map((path) => path.get?.responses));
    expect(responses).not.toContain('ItemV1');
    expect(responses).toContain('#/components/schemas/Item"');

    const list = document.paths['/v2/items/']!.get!;
    expect(list.operationId).toBe('itemList');
    expect(list.parameters.map((p) => p.name)).toEqual(['page', 'page_size']);
    const page = list.responses['200']!.content!['application/json']!.schema;
    expect(page.required).toEqual(['count', 'next', 'previous', 'results']);
    expect((page.properties as Record<string, JsonSchema>).results).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/Item' },
    });
    expect((page.properties as Record<string, JsonSchema>).next).toMatchObject(
      openapi === '3.1' ? { type: ['string', 'null'] } : { type: 'string', nullable: true },
    );
    expect(Object.keys(list.responses).sort()).toEqual(['200', '404', '406']);

    const feed = document.paths['/v2/feed/']!.get!;
    expect(feed.parameters.map((p) => p.name)).toEqual(['cursor', 'ordering']);
    expect(feed.responses['200']!.content!['application/json']!.schema.required).toEqual([
      'next',
      'previous',
      'results',
    ]);
    expect(Object.keys(feed.responses).sort()).toEqual(['200', '400', '404', '406']);

    const detail = document.paths['/v2/items/{id}/']!;
    // The lookup takes the type of the item's field of that name.
    expect(detail.get!.parameters).toEqual([
      { name: 'id', in: 'path', required: true, description: '', schema: { type: 'integer' } },
    ]);
    expect(Object.keys(detail.delete!.responses).sort()).toEqual(['204', '404', '406']);
    const create = document.paths['/v2/items/']!.post!;
    expect(Object.keys(create.responses).sort()).toEqual(['201', '400', '406']);
    expect(create.requestBody!.content['application/json']!.schema).toMatchObject({
      required: ['title', 'rating'],
    });
    expect(detail.patch!.requestBody!.content['application/json']!.schema).not.toHaveProperty('required');
    const error = document.components.schemas.Error!;
    expect(error).toMatchObject({ required: ['detail'], properties: { detail: { type: 'string' } } });
  });

  test('path versioning, every version: a {version} parameter and one schema per version', async () => {
    const document = build(schemes.path(), { openapi });
    await expectValid(document);
    expect(Object.keys(document.paths).sort()).toEqual([
      '/{version}/feed/',
      '/{version}/items/',
      '/{version}/items/{id}/',
    ]);
    const list = document.paths['/{version}/items/']!.get!;
    expect(list.parameters[0]).toMatchObject({
      name: 'version',
      in: 'path',
      required: true,
      schema: { enum: ['v1', 'v2'] },
    });
    const results = (
      list.responses['200']!.content!['application/json']!.schema.properties as Record<string, JsonSchema>
    ).results as { items: JsonSchema };
    expect(results.items).toEqual({
      oneOf: [{ $ref: '#/components/schemas/ItemV1' }, { $ref: '#/components/schemas/ItemV2' }],
    });
    const rating = (document.components.schemas.ItemV1!.properties as Record<string, JsonSchema>).rating;
    expect(rating).toMatchObject(openapi === '3.1' ? {} : { nullable: true, type: 'integer' });
    if (openapi === '3.1') expect(JSON.stringify(rating)).toContain('"null"');
  });

  test('query versioning: a version query parameter, required unless it is the default', async () => {
    const v2 = build(schemes.query(), { version: 'v2', openapi });
    const v1 = build(schemes.query(), { version: 'v1', openapi });
    await expectValid(v2);
    const parameter = (document: Doc) =>
      document.paths['/items/']!.get!.parameters.find((p) => p.name === 'version');
    expect(parameter(v2)).toMatchObject({ in: 'query', required: true, schema: { enum: ['v2'] } });
    expect(parameter(v1)).toMatchObject({ in: 'query', required: false, schema: { enum: ['v1'] } });
    expect(Object.keys(v1.components.schemas.Item!.properties as object)).toEqual(['id', 'title', 'rating']);
  });

  test('namespace versioning: only the routes of that namespace', async () => {
    const v1 = build(schemes.namespace(), { version: 'v1', openapi });
    await expectValid(v1);
    expect(Object.keys(v1.paths).sort()).toEqual(['/v1/feed/', '/v1/items/', '/v1/items/{id}/']);
    expect(v1.paths['/v1/items/']!.get!.operationId).toBe('itemList');
    const all = build(schemes.namespace(), { openapi });
    await expectValid(all);
    expect(Object.keys(all.paths)).toHaveLength(6);
    expect(all.paths['/v2/items/']!.get!.operationId).toBe('v2ItemList');
  });

  test('Accept versioning: the version is a parameter of the media type', async () => {
    const v2 = build(schemes.accept(), { version: 'v2', openapi });
    await expectValid(v2);
    expect(Object.keys(v2.paths['/items/']!.get!.responses['200']!.content!)).toEqual([
      'application/json; version=v2',
    ]);
  });

  test('host versioning: servers name the version host', async () => {
    const servers = [{ url: 'https://{version}.api.example.org' }];
    expect(build(schemes.host(), { version: 'v2', openapi, servers }).servers).toEqual([
      { url: 'https://v2.api.example.org' },
    ]);
    const all = build(schemes.host(), { openapi, servers });
    await expectValid(all);
    expect(all.servers).toEqual([
      {
        url: 'https://{version}.api.example.org',
        variables: { version: { default: 'v1', enum: ['v1', 'v2'] } },
      },
    ]);
  });
});

describe('generated documents: options and sources', () => {
  test('a deprecated version (the scheme lifecycle) marks its operations deprecated, others not', () => {
    class Lifecycled extends URLPathVersioning {
      override allowedVersions = ['v1', 'v2'];
      override readonly lifecycle = { v1: { deprecated: '2026-06-01', sunset: '2027-01-01' } };
    }
    const routes = declare(new Routes(), '/:version', Lifecycled);
    const operations = (document: Doc) =>
      Object.values(document.paths).flatMap((path) => Object.values(path));
    const v1 = operations(build(routes, { version: 'v1' }));
    expect(v1.length).toBeGreaterThan(5);
    expect(v1.every((operation) => operation.deprecated === true)).toBe(true);
    expect(operations(build(routes, { version: 'v2' })).some((operation) => 'deprecated' in operation)).toBe(
      false,
    );
  });

  test('security, license, servers, tags and operationId naming', () => {
    const document = buildOpenApiDocument(schemes.path(), {
      version: 'v1',
      license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
      servers: [{ url: 'https://api.example.org' }],
      securitySchemes: { tokenAuth: { type: 'apiKey', in: 'header', name: 'Authorization' } },
      security: [],
      operationSecurity: ({ method }) => (method === 'get' ? [] : [{ tokenAuth: [] }]),
      tags: [{ name: 'items', description: 'Items.' }],
      operationId: ({ routeName, method }) => `${method}_${routeName}`,
    }) as unknown as Doc & { info: JsonSchema; tags: unknown; security: unknown };
    expect(document.info.license).toEqual({ name: 'MIT', url: 'https://opensource.org/licenses/MIT' });
    expect(document.servers).toEqual([{ url: 'https://api.example.org' }]);
    expect(document.security).toEqual([]);
    expect(document.tags).toEqual([{ name: 'items', description: 'Items.' }, { name: 'feed' }]);
    expect(document.paths['/v1/items/']!.post!.security).toEqual([{ tokenAuth: [] }]);
    expect(document.paths['/v1/items/']!.get!.security).toEqual([]);
    expect(document.paths['/v1/items/']!.get!.operationId).toBe('get_item-list');
    expect(document.paths['/v1/items/{id}/']!.get!.operationId).toBe('get_item-detail');
  });

  test('a plain function route is left out; a wrapper documents the view it wraps', () => {
    const view = ListView.asView({ queryset: fromArray(rows), paginationClass: null, versioningClass: null });
    const wrapper: RouteHandler = (request) => view(request);
    const routes = new Routes()
      .add('/health/', 'health', () => ({ ok: true }))
      .add('/wrapped/', 'wrapped', describedLike(wrapper, view))
      .add('/bare/', 'bare', wrapper)
      .add(
        '/document.json',
        'document',
        apiView(() => ({}), { versioningClass: null }),
      )
      .add(
        '/status/',
        'status',
        apiView(() => ({ ok: true }), {
          versioningClass: null,
          methods: ['GET', 'POST'],
          schema: { title: 'Status', type: 'object', properties: { ok: { type: 'boolean' } } },
        }),
      );
    const document = build(routes);
    expect(Object.keys(document.paths)).toEqual(['/wrapped/', '/status/']);
    expect(Object.keys(document.paths['/status/']!)).toEqual(['get', 'post']);
    expect(document.paths['/status/']!.post!.responses['200']!.content!['application/json']!.schema).toEqual({
      $ref: '#/components/schemas/Status',
    });
    expect(document.paths['/wrapped/']!.get!.responses['200']!.content!['application/json']!.schema).toEqual({
      type: 'array',
      items: {},
    });
  });

  test('JSON Schema items: nullability rewritten for each dialect', () => {
    const schema = { title: 'Thing', type: 'object', properties: { n: { type: ['integer', 'null'] } } };
    const routes = new Routes().add(
      '/things/',
      'thing-list',
      ListView.asView({ queryset: fromArray(rows), schema, paginationClass: null, versioningClass: null }),
    );
    expect(build(routes, { openapi: '3.0' }).components.schemas.Thing!.properties).toEqual({
      n: { type: 'integer', nullable: true },
    });
    expect(build(routes, { openapi: '3.1' }).components.schemas.Thing!.properties).toEqual({
      n: { type: ['integer', 'null'] },
    });
  });

  test('a Standard Schema without JSON Schema needs schemaConverter; Valibot through either route', () => {
    const plain = v.object({ id: v.number(), name: v.nullable(v.string()) });
    const routesOf = (schema: unknown) =>
      new Routes().add(
        '/things/',
        'thing-list',
        ListView.asView({
          queryset: fromArray(rows),
          schema: schema as never,
          paginationClass: null,
          versioningClass: null,
        }),
      );
    expect(() => build(routesOf(plain))).toThrow(ConfigurationError);
    expect(() => build(routesOf(plain))).toThrow(/valibot schema has no JSON Schema.*schemaConverter/);
    const converted = build(routesOf(plain), {
      openapi: '3.0',
      schemaConverter: (schema) => toJsonSchema(schema as never) as JsonSchema,
    });
    expect(converted.components.schemas.Thing!.properties).toEqual({
      id: { type: 'number' },
      name: { anyOf: [{ type: 'string' }, { type: 'null' }] },
    });
    const standard = build(routesOf(toStandardJsonSchema(plain)), { openapi: '3.0' });
    expect(standard.components.schemas.Thing!.properties).toEqual({
      id: { type: 'number' },
      name: { type: 'string', nullable: true },
    });
  });

  test('a version a perVersion schema does not name is a configuration error', () => {
    const routes = new Routes().add(
      '/:version/things/',
      'thing-list',
      ListView.asView({
        queryset: fromArray(rows),
        schema: perVersion({ v1: ItemV1 }),
        serializer: (row) => ({ id: row.id, title: row.title, rating: row.rating }),
        versioningClass: URLPathVersioning,
      }),
    );
    expect(() => build(routes, { version: 'v3' })).toThrow(/no schema for version v3/);
  });

  test('the schema types the serializer: its output type, the union of a perVersion schema', () => {
    ListView.asView({
      queryset: fromArray(rows),
      schema: ItemV2,
      serializer: (row) => ({ id: row.id, headline: row.title }),
    });
    ListView.asView({
      queryset: fromArray(rows),
      schema: ItemV2,
      // @ts-expect-error: `title` is not a field of ItemV2's output
      serializer: (row) => ({ id: row.id, title: row.title }),
    });
    class Typed extends ReadOnlyModelViewSet<Row, typeof ItemSchema> {
      override schema = ItemSchema;
      // @ts-expect-error: a string is neither version's shape
      override serializer = () => 'nope';
    }
    expect(new Typed().schema).toBe(ItemSchema);
    expectTypeOf<SchemaOutput<typeof ItemSchema>>().toEqualTypeOf<
      { id: number; headline: string } | { id: number; title: string; rating: number | null }
    >();
    expectTypeOf<SchemaOutput<{ type: 'object' }>>().toBeUnknown();
  });
});
