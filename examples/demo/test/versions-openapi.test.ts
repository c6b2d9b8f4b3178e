import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fromKysely } from '@pagewise/kysely-adapter';
import {
  buildOpenApiDocument,
  ConfigurationError,
  CursorPagination,
  createNodeHandler,
  HeaderVersioning,
  type JsonSchema,
  ModelViewSet,
  perVersion,
  Routes,
  SimpleRouter,
  URLPathVersioning,
  versionBundle,
  versionChange,
  versionChangelog,
} from '@pagewise/rest';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DATED_VERSIONS } from '../src/versions.js';
import { demoDatabases, type RunningDemo, serveDemo } from './harness.js';
import { expectCompiles, expectLintClean } from './openapi-lint.js';

// Versions as code in the documents (issue 39): one OpenAPI document per version of a bundle, made
// from the newest schema and the chain; a changelog; Redocly lints every document clean; an
// openapi-typescript client of each version compiles and walks its feed over HTTP.

const DEMO = new URL('..', import.meta.url).pathname;

interface Row {
  readonly id: number;
  readonly headline: string;
  readonly summary: string;
  readonly text: string;
  readonly published: string;
}
const ROWS: Row[] = Array.from({ length: 9 }, (_, index) => ({
  id: index + 1,
  headline: `Headline ${index + 1}`,
  summary: `S${index + 1}`,
  text: `T${index + 1}`,
  published: `2025-01-0${1 + Math.floor(index / 3)}`,
}));

type Item = Record<string, unknown>;
type Properties = Record<string, JsonSchema>;
const propertiesOf = (schema: JsonSchema) => schema.properties as Properties;
const requiredOf = (schema: JsonSchema) => (schema.required as string[] | undefined) ?? [];
/** Renames a property of an object schema (and in its `required`). */
const renameProperty = (schema: JsonSchema, from: string, to: string): JsonSchema => {
  const properties = propertiesOf(schema);
  if (!(from in properties)) return schema;
  const renamed = Object.fromEntries(
    Object.entries(properties).map(([key, value]) => [key === from ? to : key, value]),
  );
  return {
    ...schema,
    properties: renamed,
    ...(schema.required ? { required: requiredOf(schema).map((key) => (key === from ? to : key)) } : {}),
  };
};

const ARTICLE: JsonSchema = {
  title: 'Article',
  type: 'object',
  required: ['id', 'headline', 'summary', 'text', 'published'],
  properties: {
    id: { type: 'integer' },
    headline: { type: 'string' },
    summary: { type: 'string' },
    text: { type: 'string' },
    published: { type: 'string', format: 'date' },
  },
};

const dataEnvelope = versionChange({
  description: 'Lists hold their items in `data` instead of `results`.',
  envelope: ({ results, ...rest }: { results: unknown[] }) => ({ ...rest, data: results }),
  envelopeSchema: (schema) => renameProperty(schema, 'results', 'data'),
});
const renamePublished = versionChange({
  description: 'Articles have `published_on` instead of `published`.',
  response: ({ published, ...rest }: Item) => ({ ...rest, published_on: published }),
  request: ({ published_on, ...rest }) =>
    published_on === undefined ? rest : { ...rest, published: published_on },
  schema: (schema) => renameProperty(schema, 'published', 'published_on'),
});
const splitBody = versionChange({
  description: 'Articles have one `body` instead of `summary` and `text`.',
  response: ({ summary, text, ...rest }: Item) => ({ ...rest, body: `${summary}\n\n${text}` }),
  // Request-body schemas go through it too: the body of a write may hold neither field.
  schema: (schema) => {
    if (!('summary' in propertiesOf(schema) || 'text' in propertiesOf(schema))) return schema;
    const { summary: _summary, text: _text, ...properties } = propertiesOf(schema);
    const required = requiredOf(schema).filter((key) => key !== 'summary' && key !== 'text');
    const merged = schema.required === undefined ? [] : ['body'];
    return {
      ...schema,
      properties: { ...properties, body: { type: 'string' } },
      required: [...required, ...merged],
    };
  },
});
const renameHeadline = versionChange({
  description: 'Articles have `title` instead of `headline`.',
  response: ({ headline, ...rest }: Item) => ({ ...rest, title: headline }),
  schema: (schema) => renameProperty(schema, 'headline', 'title'),
});
const BUNDLE = versionBundle({
  versions: [
    { version: '2026-01-10', changes: [dataEnvelope, renamePublished] },
    { version: '2025-11-15', changes: [splitBody, renameHeadline] },
    { version: '2025-06-01' },
  ],
});

const db = new Kysely<{ articles: Row }>({
  dialect: new SqliteDialect({ database: new Database(':memory:') }),
});

class Feed extends CursorPagination {
  override pageSize = 4;
  override ordering = ['published', 'id'];
}

class Articles extends ModelViewSet<Row> {
  override queryset = fromKysely(db.selectFrom('articles').selectAll().orderBy('id'), { db });
  override paginationClass = Feed;
  override schema = ARTICLE;
  override writableFields = ['headline', 'published'];
  override versionBundle = BUNDLE;
  override versioningClass = HeaderVersioning;
}

function routes(): Routes {
  const table = new Routes();
  new SimpleRouter().register('articles', Articles, { basename: 'article' }).addTo(table);
  return table;
}

const documentOf = (version: string, openapi: '3.0' | '3.1' = '3.1') =>
  buildOpenApiDocument(routes(), {
    version,
    openapi,
    title: 'Articles',
    description: 'Articles, one version per document.',
    license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
    servers: [{ url: 'https://api.example.org' }],
    securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'Authorization' } },
    security: [{ apiKey: [] }],
    tags: [{ name: 'articles', description: 'Articles, newest first.' }],
  });
/** What the assertions read of an operation. */
interface Operation {
  parameters: Array<{ name: string; in: string; schema: { enum?: string[] } }>;
  responses: Record<string, { content: Record<string, { schema: JsonSchema }> }>;
  requestBody: { content: Record<string, { schema: JsonSchema }> };
}
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema> };
};

describe('one document per version, from the newest schema and the chain', () => {
  test('each version shows its own item, envelope and request body', () => {
    const shapes = BUNDLE.versions.map((version) => {
      const document = documentOf(version) as Document;
      const list = document.paths['/articles/']!.get!;
      const envelope = list.responses['200']!.content['application/json']!.schema;
      const body = document.paths['/articles/']!.post!.requestBody.content['application/json']!.schema;
      const header = list.parameters.find((parameter) => parameter.in === 'header')!;
      return {
        version,
        item: Object.keys(propertiesOf(document.components.schemas.Article!)),
        required: requiredOf(document.components.schemas.Article!),
        envelope: Object.keys(propertiesOf(envelope)),
        body: Object.keys(propertiesOf(body)),
        header: [header.name, header.schema.enum],
      };
    });
    expect(shapes).toEqual([
      {
        version: '2026-01-10',
        item: ['id', 'headline', 'summary', 'text', 'published'],
        required: ['id', 'headline', 'summary', 'text', 'published'],
        envelope: ['next', 'previous', 'results'],
        body: ['headline', 'published'],
        header: ['Api-Version', ['2026-01-10']],
      },
      {
        version: '2025-11-15',
        item: ['id', 'headline', 'summary', 'text', 'published_on'],
        required: ['id', 'headline', 'summary', 'text', 'published_on'],
        envelope: ['next', 'previous', 'data'],
        body: ['headline', 'published_on'],
        header: ['Api-Version', ['2025-11-15']],
      },
      {
        version: '2025-06-01',
        item: ['id', 'title', 'published_on', 'body'],
        required: ['id', 'title', 'published_on', 'body'],
        envelope: ['next', 'previous', 'data'],
        body: ['title', 'published_on'],
        header: ['Api-Version', ['2025-06-01']],
      },
    ]);
  });

  test('a date between two versions documents the earlier one', () => {
    const between = documentOf('2025-12-25') as Document;
    expect(Object.keys(propertiesOf(between.components.schemas.Article!))).toContain('published_on');
  });

  test('the document of every version shows each version of the item', () => {
    const all = buildOpenApiDocument(routes(), {}) as Document;
    expect(Object.keys(all.components.schemas).sort()).toEqual(
      ['Article20260110', 'Article20251115', 'Article20250601', 'Error', 'FieldErrors'].sort(),
    );
  });

  test('a schema no change touches is one component, named as without a bundle', () => {
    class Tags extends ModelViewSet<{ id: number; name: string }> {
      override queryset = Articles.prototype.queryset as never;
      override schema = {
        title: 'Tag',
        type: 'object',
        properties: { id: { type: 'integer' }, name: { type: 'string' } },
      };
      override versionBundle = BUNDLE;
      override versioningClass = HeaderVersioning;
    }
    const table = new Routes();
    new SimpleRouter().register('tags', Tags, { basename: 'tag' }).addTo(table);
    const all = buildOpenApiDocument(table, {}) as Document;
    expect(Object.keys(all.components.schemas).sort()).toEqual(['Error', 'FieldErrors', 'Tag']);
    expect(all.paths['/tags/{id}/']!.get!.responses['200']!.content['application/json']!.schema).toEqual({
      $ref: '#/components/schemas/Tag',
    });
  });

  test('a perVersion schema beside a bundle is a ConfigurationError', () => {
    class Both extends Articles {
      override schema = perVersion({ '2026-01-10': ARTICLE }) as never;
    }
    const table = new Routes();
    new SimpleRouter().register('articles', Both, { basename: 'article' }).addTo(table);
    expect(() => buildOpenApiDocument(table, { version: '2026-01-10' })).toThrow(ConfigurationError);
  });

  test('the path scheme under a bundle documents each dated path', () => {
    const table = new Routes();
    new SimpleRouter()
      .register('articles', Articles, {
        basename: 'article',
        options: { versioningClass: URLPathVersioning },
      })
      .addTo(table, '/:version');
    const document = buildOpenApiDocument(table, { version: '2025-06-01' }) as Document;
    expect(Object.keys(document.paths)).toEqual(['/2025-06-01/articles/', '/2025-06-01/articles/{id}/']);
  });
});

test('versionChangelog: a Markdown section per version, newest first', () => {
  expect(versionChangelog(BUNDLE)).toBe(
    [
      '## 2026-01-10',
      '',
      '- Lists hold their items in `data` instead of `results`.',
      '- Articles have `published_on` instead of `published`.',
      '',
      '## 2025-11-15',
      '',
      '- Articles have one `body` instead of `summary` and `text`.',
      '- Articles have `title` instead of `headline`.',
      '',
    ].join('\n'),
  );
});

/** A walk of `path`'s cursor feed by an openapi-fetch client of `types`, under `Api-Version: version`. */
function walkSource(types: string, path: string, version: string, list: string, field: string): string {
  return [
    "import createClient from 'openapi-fetch';",
    `import type { paths } from './${types}.js';`,
    'export async function walk(baseUrl: string): Promise<string[]> {',
    '  const client = createClient<paths>({ baseUrl });',
    '  const seen: string[] = [];',
    '  let cursor: string | undefined;',
    '  do {',
    `    const { data, error } = await client.GET('${path}', { params: { header: { 'Api-Version': '${version}' }, query: cursor ? { cursor } : {} } });`,
    '    if (error !== undefined || data === undefined) throw new Error(JSON.stringify(error));',
    `    for (const article of data.${list}) seen.push(article.${field});`,
    "    cursor = data.next === null ? undefined : (new URL(data.next).searchParams.get('cursor') ?? undefined);",
    '  } while (cursor !== undefined);',
    '  return seen;',
    '}',
  ].join('\n');
}

describe('the tools, on every version', () => {
  // Inside the demo so the generated files resolve openapi-fetch from its node_modules.
  const dir = mkdtempSync(join(DEMO, 'test/.versions-'));
  let server: http.Server;
  let origin = '';

  beforeAll(async () => {
    await db.schema
      .createTable('articles')
      .addColumn('id', 'integer', (column) => column.primaryKey())
      .addColumn('headline', 'text', (column) => column.notNull())
      .addColumn('summary', 'text', (column) => column.notNull())
      .addColumn('text', 'text', (column) => column.notNull())
      .addColumn('published', 'text', (column) => column.notNull())
      .execute();
    await db.insertInto('articles').values(ROWS).execute();
    server = http.createServer(createNodeHandler({ routes: routes(), allowedHosts: ['127.0.0.1'] }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
    await db.destroy();
  });

  test('redocly lint (recommended, trailing-slash rule off): 0 errors and 0 warnings on each version and dialect', async () => {
    const files: string[] = [];
    for (const version of BUNDLE.versions) {
      for (const openapi of ['3.1', '3.0'] as const) {
        const file = join(dir, `${version}-${openapi}.json`);
        writeFileSync(file, JSON.stringify(documentOf(version, openapi)));
        files.push(file);
      }
    }
    await expectLintClean(files);
  }, 120_000);

  test('an openapi-typescript client of each version compiles under strict and walks its feed', async () => {
    const walks = [
      { version: '2026-01-10', list: 'results', field: 'headline' },
      { version: '2025-11-15', list: 'data', field: 'headline' },
      { version: '2025-06-01', list: 'data', field: 'title' },
    ];
    const files: string[] = [];
    for (const { version, list, field } of walks) {
      const name = version.replaceAll('-', '');
      writeFileSync(
        join(dir, `types-${name}.ts`),
        astToString(await openapiTS(documentOf(version) as unknown as Parameters<typeof openapiTS>[0])),
      );
      const walk = join(dir, `walk-${name}.ts`);
      writeFileSync(walk, walkSource(`types-${name}`, '/articles/', version, list, field));
      files.push(walk);
    }
    expectCompiles(files);
    for (const file of files) {
      const { walk } = (await import(file)) as { walk: (baseUrl: string) => Promise<string[]> };
      expect(await walk(origin)).toEqual(ROWS.map((row) => row.headline));
    }
  }, 60_000);
});

/** The demo's article fields, newest first: 2026-01-10 (v2), 2025-11-15, 2025-06-01 (v1). */
const NEWEST = ['id', 'url', 'headline', 'content', 'publishedAt', 'rating', 'author'];
const FLAT_AUTHOR = ['id', 'url', 'headline', 'content', 'author_id', 'author_url', 'publishedAt', 'rating'];
const V1 = ['id', 'url', 'title', 'body', 'author_id', 'author_url', 'published_at', 'rating'];

describe("the demo's dated versions (/dated/), through the same tools", () => {
  const dir = mkdtempSync(join(DEMO, 'test/.dated-'));
  let handle: Awaited<ReturnType<NonNullable<ReturnType<typeof demoDatabases>[0]>['open']>>;
  let demo: RunningDemo;
  const documentOfDemo = async (version: string, openapi: '3.0' | '3.1') => {
    const response = await fetch(`${demo.base}/dated/openapi.json?openapi=${openapi}`, {
      headers: { 'api-version': version },
    });
    expect(response.status).toBe(200);
    return (await response.json()) as Document;
  };

  beforeAll(async () => {
    handle = await demoDatabases()[0]!.open();
    demo = await serveDemo(handle, 'path');
  }, 120_000);
  afterAll(async () => {
    await demo?.close();
    await handle?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  test("each version's document shows its article and envelope; a date between two documents the earlier", async () => {
    const shapes = [];
    for (const version of [...DATED_VERSIONS.versions, '2025-12-25']) {
      const document = await documentOfDemo(version, '3.1');
      const feed = document.paths['/dated/articles/feed/']!.get!;
      const envelope = feed.responses['200']!.content['application/json']!.schema;
      shapes.push([
        version,
        Object.keys(propertiesOf(document.components.schemas.Article!)),
        Object.keys(propertiesOf(envelope)),
      ]);
    }
    expect(shapes).toEqual([
      ['2026-01-10', NEWEST, ['next', 'previous', 'results']],
      ['2025-11-15', FLAT_AUTHOR, ['next', 'previous', 'results']],
      ['2025-06-01', V1, ['next', 'previous', 'results']],
      ['2025-01-01', V1, ['next', 'previous', 'data']],
      ['2025-12-25', FLAT_AUTHOR, ['next', 'previous', 'results']],
    ]);
  });

  test('redocly lints every dated version clean, in both dialects', async () => {
    const files: string[] = [];
    for (const version of DATED_VERSIONS.versions) {
      for (const openapi of ['3.1', '3.0'] as const) {
        const file = join(dir, `${version}-${openapi}.json`);
        writeFileSync(file, JSON.stringify(await documentOfDemo(version, openapi)));
        files.push(file);
      }
    }
    await expectLintClean(files);
  }, 120_000);

  test('an openapi-typescript client of each dated version compiles and walks the whole feed', async () => {
    const walks = DATED_VERSIONS.versions.map((version) => ({
      version,
      list: version === DATED_VERSIONS.oldest ? 'data' : 'results',
      field: version < '2025-11-15' ? 'title' : 'headline',
    }));
    const files: string[] = [];
    for (const { version, list, field } of walks) {
      const name = `demo-${version.replaceAll('-', '')}`;
      writeFileSync(
        join(dir, `types-${name}.ts`),
        astToString(
          await openapiTS(
            (await documentOfDemo(version, '3.1')) as unknown as Parameters<typeof openapiTS>[0],
          ),
        ),
      );
      const walk = join(dir, `walk-${name}.ts`);
      writeFileSync(walk, walkSource(`types-${name}`, '/dated/articles/feed/', version, list, field));
      files.push(walk);
    }
    expectCompiles(files);
    const rows = await handle.db
      .selectFrom('articles')
      .select('title')
      .orderBy('published_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    for (const file of files) {
      const { walk } = (await import(file)) as { walk: (baseUrl: string) => Promise<string[]> };
      expect(await walk(demo.base)).toEqual(rows.map((row) => row.title));
    }
  }, 120_000);
});
