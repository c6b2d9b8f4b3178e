// OPTIONS as DRF's SimpleMetadata answers it (issue 32, item 2): ported from tests/test_metadata.py
// and tests/test_description.py (view names and descriptions), with the router's suffixes
// (tests/test_routers.py TestViewInitkwargs). A TypeScript class has no docstring: its
// `static description` is the docstring, an instance `description` (option or field) DRF's
// `description` attribute. DRF's serializer fields are the view's `schema` (JSON Schema or a
// Standard Schema) with `writableFields`. Expected values without an upstream test were read off
// DRF 3.18 answering the same requests.

import { fromArray } from '@pagewise/memory-adapter';
import {
  ApiRequest,
  type ApiResponse,
  ApiView,
  apiView,
  DefaultRouter,
  dedentDescription,
  GenericViewSet,
  ListView,
  ModelViewSet,
  NotFound,
  PageNumberPagination,
  PermissionDenied,
  QueryParameterVersioning,
  type RouteHandler,
  Routes,
  URLPathVersioning,
  viewNameOf,
  type WriteValues,
} from '@pagewise/rest';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const options = (path = '/', headers: Record<string, string> = {}) =>
  new ApiRequest({ url: `http://testserver${path}`, method: 'OPTIONS', headers });

async function metadataOf(handler: RouteHandler, request = options()) {
  const response = (await handler(request)) as ApiResponse;
  return { status: response.status, body: JSON.parse(String(response.data)), headers: response.headers };
}

/** DRF's DESCRIPTION, the docstring below once dedented. */
const DESCRIPTION = `an example docstring
====================

* list
* list

another header
--------------

    code block

indented

# hash style header #

\`\`\`json
[{
    "alpha": 1,
    "beta": "this is a string"
}]
\`\`\``;

describe('TestViewNamesAndDescriptions (tests/test_description.py)', () => {
  it('test_view_name_uses_class_name', () => {
    class MockView extends ApiView {}
    expect(new MockView().viewName()).toBe('Mock');
  });

  it('test_view_name_uses_name_attribute (title)', () => {
    class MockView extends ApiView {
      override title = 'Foo';
    }
    expect(new MockView().viewName()).toBe('Foo');
  });

  it('test_view_name_uses_suffix_attribute', () => {
    class MockView extends ApiView {
      override suffix = 'List';
    }
    expect(new MockView().viewName()).toBe('Mock List');
  });

  it('test_view_name_preferences_name_over_suffix', () => {
    class MockView extends ApiView {
      override title = 'Foo';
      override suffix = 'List';
    }
    expect(new MockView().viewName()).toBe('Foo');
  });

  it('test_view_description_uses_docstring (static description, dedented)', () => {
    class MockView extends ApiView {
      static override description = `an example docstring
            ====================

            * list
            * list

            another header
            --------------

                code block

            indented

            # hash style header #

            \`\`\`json
            [{
                "alpha": 1,
                "beta": "this is a string"
            }]
            \`\`\``;
    }
    expect(new MockView().viewDescription()).toBe(DESCRIPTION);
  });

  it('test_view_description_uses_description_attribute', () => {
    class MockView extends ApiView {
      override description = 'Foo';
    }
    expect(new MockView().viewDescription()).toBe('Foo');
    expect(new ApiView({ description: 'Bar' }).viewDescription()).toBe('Bar');
  });

  it('test_view_description_allows_empty_description', () => {
    class MockView extends ApiView {
      static override description = 'Description.';
      override description = '';
    }
    expect(new MockView().viewDescription()).toBe('');
  });

  it('test_view_description_can_be_empty; a docstring is the class’s own, as Python’s __doc__', () => {
    class MockView extends ApiView {}
    expect(new MockView().viewDescription()).toBe('');
    class Documented extends ApiView {
      static override description = 'Documented.';
    }
    class Undocumented extends Documented {}
    expect(new Undocumented().viewDescription()).toBe('');
  });

  it('test_dedent_tabs', () => {
    const result = 'first string\n\nsecond string';
    expect(dedentDescription('    first string\n\n    second string')).toBe(result);
    expect(dedentDescription('first string\n\n    second string')).toBe(result);
    expect(dedentDescription('\tfirst string\n\n\tsecond string')).toBe(result);
    expect(dedentDescription('first string\n\n\tsecond string')).toBe(result);
  });

  it("get_view_name's words (formatting.camelcase_to_spaces), as DRF derives them", () => {
    for (const [name, words] of [
      ['ArticleViewSet', 'Article'],
      ['APIRootView', 'Api Root'],
      ['ListView', 'List'],
      ['HTTPResponseView', 'Http Response'],
      ['MyAPI2View', 'My Ap I2'],
      ['plain_thing', 'Plain Thing'],
      ['plainThing', 'Plain Thing'],
      ['View', 'View'],
      ['ViewSet', 'View Set'],
      ['Article_listView', 'Article List'],
      ['v2ApiView', 'V2 Api'],
      ['XMLHttpRequest', 'Xml Http Request'],
      ['A1B2View', 'A1 B2'],
    ] as const) {
      expect([name, viewNameOf(name)]).toEqual([name, words]);
    }
  });
});

describe('TestMetadata (tests/test_metadata.py)', () => {
  it('test_metadata: name, description, renders, parses', async () => {
    class ExampleView extends ApiView {
      static override description = 'Example view.';
    }
    const answer = await metadataOf(ExampleView.asView());
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      name: 'Example',
      description: 'Example view.',
      renders: ['application/json', 'text/html'],
      parses: ['application/json'],
    });
  });

  it('test_actions: the fields a POST takes, with their metadata', async () => {
    class ExampleViewSet extends GenericViewSet<Record<string, unknown>> {
      static override description = 'Example view.';
      override queryset = fromArray<Record<string, unknown>>([]);
      override schema = {
        type: 'object',
        properties: {
          choice_field: { enum: ['red', 'green', 'blue'] },
          integer_field: { type: 'integer', minimum: 1, maximum: 1000 },
          char_field: { type: 'string', minLength: 3, maxLength: 40 },
          list_field: { type: 'array', items: { type: 'array', items: { type: 'integer' } } },
          nested_field: {
            type: 'object',
            properties: { a: { type: 'integer' }, b: { type: 'integer' } },
            required: ['a', 'b'],
          },
          uuid_field: { type: 'string', format: 'uuid', title: 'UUID field' },
        },
        required: ['choice_field', 'integer_field', 'list_field', 'nested_field', 'uuid_field'],
      };
      override validate = (values: WriteValues) => values;
    }
    const answer = await metadataOf(ExampleViewSet.actions({ post: 'create' }));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      name: 'Example',
      description: 'Example view.',
      renders: ['application/json', 'text/html'],
      parses: ['application/json'],
      actions: {
        POST: {
          choice_field: {
            type: 'choice',
            required: true,
            read_only: false,
            label: 'Choice field',
            choices: [
              { display_name: 'red', value: 'red' },
              { display_name: 'green', value: 'green' },
              { display_name: 'blue', value: 'blue' },
            ],
          },
          integer_field: {
            type: 'integer',
            required: true,
            read_only: false,
            label: 'Integer field',
            min_value: 1,
            max_value: 1000,
          },
          char_field: {
            type: 'string',
            required: false,
            read_only: false,
            label: 'Char field',
            min_length: 3,
            max_length: 40,
          },
          list_field: {
            type: 'list',
            required: true,
            read_only: false,
            label: 'List field',
            child: {
              type: 'list',
              required: true,
              read_only: false,
              child: { type: 'integer', required: true, read_only: false },
            },
          },
          nested_field: {
            type: 'nested object',
            required: true,
            read_only: false,
            label: 'Nested field',
            children: {
              a: { type: 'integer', required: true, read_only: false, label: 'A' },
              b: { type: 'integer', required: true, read_only: false, label: 'B' },
            },
          },
          uuid_field: { type: 'string', required: true, read_only: false, label: 'UUID field' },
        },
      },
    });
  });

  /** DRF's ExampleSerializer of the permission tests, as a schema. */
  const permissionSchema = {
    type: 'object',
    properties: {
      choice_field: { enum: ['red', 'green', 'blue'] },
      integer_field: { type: 'integer', maximum: 10 },
      char_field: { type: 'string' },
    },
    required: ['choice_field', 'integer_field'],
  };

  it('test_global_permissions: an action the user may not take is left out', async () => {
    class ExampleViewSet extends GenericViewSet<{ id: number }> {
      override queryset = fromArray([{ id: 1 }]);
      override schema = permissionSchema;
      override validate = (values: WriteValues) => values;
      override checkPermissions(request: ApiRequest): void {
        if (request.method === 'POST') throw new PermissionDenied();
      }
    }
    const handler = ExampleViewSet.actions({ post: 'create', put: 'update' });
    const answer = await metadataOf(handler, new ApiRequest({ ...optionsInit('/1/'), params: { id: '1' } }));
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body.actions)).toEqual(['PUT']);
  });

  it('test_object_permissions: a PUT whose object the user may not get is left out', async () => {
    class ExampleViewSet extends GenericViewSet<{ id: number }> {
      override queryset = fromArray([{ id: 1 }]);
      override schema = permissionSchema;
      override validate = (values: WriteValues) => values;
      override async getObject(request: ApiRequest): Promise<{ id: number }> {
        if (request.method === 'PUT') throw new PermissionDenied();
        return super.getObject(request);
      }
    }
    const handler = ExampleViewSet.actions({ post: 'create', put: 'update' });
    const answer = await metadataOf(handler, new ApiRequest({ ...optionsInit('/1/'), params: { id: '1' } }));
    expect(Object.keys(answer.body.actions)).toEqual(['POST']);
  });

  it('test_bug_2455_clone_request / test_bug_2477_clone_request: the cloned request keeps version and scheme', async () => {
    const seen: Array<[string, string | null, unknown]> = [];
    class ExampleViewSet extends GenericViewSet<{ id: number }> {
      override versioningClass = QueryParameterVersioning;
      override queryset = fromArray([{ id: 1 }]);
      override validate = (values: WriteValues) => values;
      override writableFields = ['id'];
      override checkPermissions(request: ApiRequest): void {
        seen.push([request.method, request.version, request.versioningScheme]);
      }
    }
    await metadataOf(ExampleViewSet.actions({ post: 'create' }), options('/?version=v7'));
    expect(
      seen.map(([method, version, scheme]) => [method, version, scheme instanceof QueryParameterVersioning]),
    ).toEqual([
      ['OPTIONS', 'v7', true],
      ['POST', 'v7', true],
    ]);
  });

  it('test_null_boolean_field_info_type: a nullable boolean is a boolean', async () => {
    class ExampleViewSet extends GenericViewSet<{ id: number }> {
      override queryset = fromArray([{ id: 1 }]);
      override schema = { type: 'object', properties: { flag: { type: ['boolean', 'null'] } } };
      override validate = (values: WriteValues) => values;
    }
    const answer = await metadataOf(ExampleViewSet.actions({ post: 'create' }));
    expect(answer.body.actions.POST.flag).toEqual({
      type: 'boolean',
      required: false,
      read_only: false,
      label: 'Flag',
    });
  });
});

interface Article {
  readonly id: number;
  readonly title: string;
  readonly status: 'draft' | 'published';
}

/**
 * DRF's ModelViewSet over `Article(title=CharField(max_length=100), status=CharField(choices=...))`
 * answered these; the schema says what the model says, `writableFields` what the serializer writes.
 */
class ArticleViewSet extends ModelViewSet<Article> {
  static override description = `
    Articles of the blog.

    Second paragraph.
  `;
  override paginationClass = PageNumberPagination;
  override queryset = fromArray<Article>([{ id: 1, title: 't1', status: 'draft' }]);
  override schema = {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      title: { type: 'string', maxLength: 100 },
      status: {
        oneOf: [
          { const: 'draft', title: 'Draft' },
          { const: 'published', title: 'Published' },
        ],
      },
    },
  };
  override writableFields = ['title', 'status'];
  override performCreate = (values: WriteValues) => values as unknown as Article;
}

const routes = new DefaultRouter()
  .register('articles', ArticleViewSet, { basename: 'article' })
  .addTo(new Routes(), '/api');

async function call(path: string, method = 'OPTIONS') {
  const match = routes.match(path);
  if (match === null) throw new Error(`no route for ${path}`);
  const request = new ApiRequest({ url: `http://testserver${path}`, method, params: match.params });
  request.routes = routes;
  return metadataOf(match.handler!, request);
}

function optionsInit(path: string) {
  return { url: `http://testserver${path}`, method: 'OPTIONS' };
}

const ARTICLE_FIELDS = {
  id: { type: 'integer', required: false, read_only: true, label: 'ID' },
  title: { type: 'string', required: true, read_only: false, label: 'Title', max_length: 100 },
  status: {
    type: 'choice',
    required: true,
    read_only: false,
    label: 'Status',
    choices: [
      { value: 'draft', display_name: 'Draft' },
      { value: 'published', display_name: 'Published' },
    ],
  },
};

describe('OPTIONS through a DefaultRouter, as DRF 3.18 answers it', () => {
  it('the list: "Article List", the docstring dedented, POST fields; Pagewise adds its pagination', async () => {
    const answer = await call('/api/articles/');
    expect(answer.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS');
    expect(answer.body).toEqual({
      name: 'Article List',
      description: 'Articles of the blog.\n\nSecond paragraph.',
      renders: ['application/json', 'text/html'],
      parses: ['application/json'],
      actions: { POST: ARTICLE_FIELDS },
      pagination: {
        style: 'PageNumberPagination',
        parameters: [
          {
            name: 'page',
            required: false,
            in: 'query',
            description: 'A page number within the paginated result set.',
            schema: { type: 'integer' },
          },
        ],
      },
    });
  });

  it('the detail: "Article Instance" with the PUT fields; a missing object has none (get_object is 404)', async () => {
    expect((await call('/api/articles/1/')).body).toEqual({
      name: 'Article Instance',
      description: 'Articles of the blog.\n\nSecond paragraph.',
      renders: ['application/json', 'text/html'],
      parses: ['application/json'],
      actions: { PUT: ARTICLE_FIELDS },
    });
    const missing = await call('/api/articles/999/');
    expect(missing.status).toBe(200);
    expect(missing.body).not.toHaveProperty('actions');
    expect(missing.body.name).toBe('Article Instance');
  });

  it('the API root: "Api Root", described as DRF describes it', async () => {
    expect((await call('/api/')).body).toEqual({
      name: 'Api Root',
      description: 'The default basic root view for DefaultRouter',
      renders: ['application/json', 'text/html'],
      parses: ['application/json'],
    });
  });

  it('the browsable page is headed with the same name', async () => {
    const match = routes.match('/api/articles/1/')!;
    const request = new ApiRequest({
      url: 'http://testserver/api/articles/1/',
      headers: { accept: 'text/html' },
      params: match.params,
    });
    request.routes = routes;
    const page = (await match.handler!(request)) as ApiResponse;
    expect(String(page.data)).toContain('<title>Article Instance</title>');
  });
});

describe('who may write', () => {
  const TOKEN = 'secret';
  class AuthorViewSet extends ModelViewSet<{ id: number; name: string; email: string }> {
    override paginationClass = null;
    override versioningClass = URLPathVersioning;
    override queryset = fromArray([{ id: 1, name: 'Ada', email: 'ada@example.org' }]);
    override schema = z.object({
      id: z.number().int(),
      name: z.string().max(100),
      email: z.email().max(254).describe('Where to write.'),
    });
    override writableFields = ['name', 'email'];
    override performCreate = (values: WriteValues) => ({ id: 2, name: '', email: '', ...values });
    override checkPermissions(request: ApiRequest): void {
      const safe = ['GET', 'HEAD', 'OPTIONS'].includes(request.method);
      if (!safe && request.headers.get('authorization') !== `Token ${TOKEN}`) throw new PermissionDenied();
    }
  }
  const handler = AuthorViewSet.actions({ get: 'list', post: 'create' }, { suffix: 'List' });

  it('without the token there are no actions; with it, the fields of a Standard Schema', async () => {
    const anonymous = await metadataOf(handler, options('/v1/authors/'));
    expect(anonymous.body.name).toBe('Author List');
    expect(anonymous.body).not.toHaveProperty('actions');
    const writer = await metadataOf(handler, options('/v1/authors/', { authorization: `Token ${TOKEN}` }));
    expect(writer.body.actions).toEqual({
      POST: {
        id: { type: 'integer', required: false, read_only: true, label: 'ID' },
        name: { type: 'string', required: true, read_only: false, label: 'Name', max_length: 100 },
        email: {
          type: 'email',
          required: true,
          read_only: false,
          label: 'Email',
          help_text: 'Where to write.',
          max_length: 254,
        },
      },
    });
  });

  it('PermissionDenied is the 403 of DRF, from checkPermissions before any handler', async () => {
    const request = new ApiRequest({
      url: 'http://testserver/v1/authors/',
      method: 'POST',
      body: '{"name": "x"}',
    });
    const answer = (await handler(request)) as ApiResponse;
    expect([answer.status, JSON.parse(String(answer.data))]).toEqual([
      403,
      { detail: 'You do not have permission to perform this action.' },
    ]);
  });
});

describe('names of other views', () => {
  it('a function view is named after its function (DRF: func.__name__); an anonymous one "Pagewise API"', async () => {
    async function plainThing() {
      return {};
    }
    const named = await metadataOf(apiView(plainThing, { description: 'A plain view.' }));
    expect(named.body).toMatchObject({ name: 'Plain Thing', description: 'A plain view.' });
    const anonymous = await metadataOf(apiView(() => ({})));
    expect(anonymous.body.name).toBe('Pagewise API');
  });

  it('a list view: its class name in words, no actions (GET only)', async () => {
    class ArticleList extends ListView<number> {
      static override description = 'Every article.';
      override queryset = fromArray([1, 2]);
    }
    const answer = await metadataOf(ArticleList.asView());
    expect(answer.body).toEqual({
      name: 'Article List',
      description: 'Every article.',
      renders: ['application/json', 'text/html'],
      parses: ['application/json'],
    });
  });

  it('a viewset routed without a router has no suffix; an error in metadata is still DRF’s answer', async () => {
    class NoteViewSet extends GenericViewSet<{ id: number }> {
      override queryset = fromArray([{ id: 1 }]);
      override async retrieve(): Promise<ApiResponse> {
        throw new NotFound();
      }
    }
    const answer = await metadataOf(NoteViewSet.actions({ get: 'retrieve' }));
    expect(answer.body.name).toBe('Note');
  });
});
