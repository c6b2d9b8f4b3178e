import {
  buildOpenApiDocument,
  CursorPagination,
  LimitOffsetPagination,
  nullableType,
  type OpenApiVersion,
  PageNumberPagination,
} from '@pagewise/rest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, test } from 'vitest';

function documentFor(version: OpenApiVersion) {
  const item = {
    type: 'object',
    required: ['id', 'rating'],
    properties: { id: { type: 'integer' }, rating: nullableType('integer', version) },
  };
  return buildOpenApiDocument({
    title: 'Test API',
    version: '1.0.0',
    openapi: version,
    operations: [
      {
        path: '/{version}/pages/',
        operationId: 'pages',
        list: true,
        pathParameters: [{ name: 'version', schema: { type: 'string', enum: ['v1', 'v2'] } }],
        pagination: new PageNumberPagination({ pageSize: 10, pageSizeQueryParam: 'page_size' }),
        itemSchema: item,
        errors: { '404': 'Invalid page.' },
      },
      {
        path: '/offsets/',
        operationId: 'offsets',
        list: true,
        pagination: new LimitOffsetPagination({ defaultLimit: 10 }),
        itemSchema: item,
      },
      {
        path: '/feed/',
        operationId: 'feed',
        list: true,
        pagination: new CursorPagination({ pageSize: 10 }),
        filterParameters: [
          {
            name: 'ordering',
            required: false,
            in: 'query',
            description: 'Which field to use when ordering the results.',
            schema: { type: 'string' },
          },
        ],
        itemSchema: item,
      },
      { path: '/all/', operationId: 'all', list: true, pagination: null, itemSchema: item },
      {
        path: '/one/{id}/',
        operationId: 'one',
        pathParameters: [{ name: 'id', schema: { type: 'integer' } }],
        itemSchema: item,
      },
    ],
  });
}

describe.each(['3.0', '3.1'] as const)('OpenAPI %s document', (version) => {
  test('is valid according to the official schema', async () => {
    const validator = new Validator();
    const result = await validator.validate(
      structuredClone(documentFor(version)) as Parameters<Validator['validate']>[0],
    );
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe(version === '3.1' ? '3.1' : '3.0');
  });

  test('list operations: path, then pagination, then filter parameters; paginated envelope', () => {
    interface Schema {
      type?: unknown;
      required?: string[];
      properties: Record<string, Schema>;
    }
    interface Operation {
      parameters: Array<{ name: string }>;
      responses: Record<string, { content: { 'application/json': { schema: Schema } } }>;
    }
    const doc = documentFor(version) as unknown as { paths: Record<string, { get: Operation }> };
    const pages = doc.paths['/{version}/pages/']!.get;
    expect(pages.parameters.map((p) => p.name)).toEqual(['version', 'page', 'page_size']);
    const schema = pages.responses['200']!.content['application/json'].schema;
    expect(schema.required).toEqual(['count', 'results']);
    expect(schema.properties.results!.type).toBe('array');
    expect(schema.properties.next).toEqual(
      version === '3.1'
        ? { type: ['string', 'null'], format: 'uri', example: 'http://api.example.org/accounts/?page=4' }
        : {
            type: 'string',
            nullable: true,
            format: 'uri',
            example: 'http://api.example.org/accounts/?page=4',
          },
    );
    expect(doc.paths['/feed/']!.get.parameters.map((p) => p.name)).toEqual(['cursor', 'ordering']);
    expect(doc.paths['/all/']!.get.responses['200']!.content['application/json'].schema.type).toBe('array');
    const one = doc.paths['/one/{id}/']!.get;
    expect(one.parameters).toHaveLength(1);
    expect(one.responses['200']!.content['application/json'].schema.type).toBe('object');
  });

  test('a list documents count fields only where its paginator counts (issue 38)', async () => {
    const item = { type: 'object', properties: { id: { type: 'integer' } } };
    const list = (path: string, pagination: CursorPagination | PageNumberPagination) => ({
      path,
      operationId: path.replaceAll('/', ''),
      list: true,
      pagination,
      itemSchema: item,
    });
    const doc = buildOpenApiDocument({
      title: 'Counts',
      version: '1.0.0',
      openapi: version,
      operations: [
        list('/feed/', new CursorPagination({ pageSize: 10 })),
        list('/counted/', new CursorPagination({ pageSize: 10, count: 'exact' })),
        list('/estimated/', new CursorPagination({ pageSize: 10, count: 'estimated' })),
        list('/cached/', new CursorPagination({ pageSize: 10, count: 'exact', countCacheTtl: 30_000 })),
        list('/bounded/', new CursorPagination({ pageSize: 10, count: 'exact', countTimeout: 200 })),
        list('/pages/', new PageNumberPagination({ pageSize: 10 })),
      ],
    });
    const envelope = (path: string) => {
      const paths = (
        doc as unknown as { paths: Record<string, { get: { responses: Record<string, unknown> } }> }
      ).paths;
      const response = paths[path]!.get.responses['200'] as {
        content: { 'application/json': { schema: { properties: object; required?: string[] } } };
      };
      return response.content['application/json'].schema;
    };
    // No count configured: no count field anywhere in the operation, nor a countMode or countAge.
    expect(Object.keys(envelope('/feed/').properties)).toEqual(['next', 'previous', 'results']);
    expect(JSON.stringify(envelope('/feed/'))).not.toMatch(/"count/);
    expect(Object.keys(envelope('/counted/').properties)).toEqual(['count', 'next', 'previous', 'results']);
    expect(envelope('/counted/').required).toContain('count');
    expect(Object.keys(envelope('/estimated/').properties)).toEqual([
      'count',
      'countMode',
      'next',
      'previous',
      'results',
    ]);
    expect(Object.keys(envelope('/cached/').properties)).toEqual([
      'count',
      'countMode',
      'countAge',
      'next',
      'previous',
      'results',
    ]);
    // Past countTimeout the estimate is answered, which the body says.
    expect(Object.keys(envelope('/bounded/').properties)).toEqual([
      'count',
      'countMode',
      'next',
      'previous',
      'results',
    ]);
    // Page numbers always count exactly: count, and no countMode unless a mode could answer another.
    expect(Object.keys(envelope('/pages/').properties)).toEqual(['count', 'next', 'previous', 'results']);
    const result = await new Validator().validate(
      structuredClone(doc) as Parameters<Validator['validate']>[0],
    );
    expect(result.errors ?? []).toEqual([]);
  });
});
