// Issue 36 §1: OPTIONS on a viewset whose schema is recursive expanded every `$ref` again, down to
// depth 16, in the `actions` metadata: 960,587 bytes for a Zod tree (parent/children), 34 MB and
// 834 ms of blocked event loop with 3 self-references. A recursive field is described once (as
// DRF describes a nested serializer): the metadata, and the OpenAPI documents, stay linear in the
// schema.
import { fromArray } from '@pagewise/memory-adapter';
import {
  ApiRequest,
  type ApiResponse,
  buildOpenApiDocument,
  DefaultRouter,
  ModelViewSet,
  Routes,
  type WriteValues,
} from '@pagewise/rest';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

interface TreeNode {
  id: number;
  name: string;
  parent: TreeNode | null;
  children: TreeNode[];
}
const Tree: z.ZodType<TreeNode> = z.object({
  id: z.number().int(),
  name: z.string().max(50),
  get parent() {
    return Tree.nullable();
  },
  get children() {
    return z.array(Tree);
  },
});
/** A tree as a field of the item (Zod puts the tree in `$defs`, referred to from itself)… */
const Category = z.object({
  id: z.number().int(),
  name: z.string().max(50),
  parent: Tree.nullable(),
  children: z.array(Tree),
});

/** A JSON Schema whose definition refers to itself three times. */
const THREE_SELF_REFERENCES = {
  type: 'object',
  $defs: {
    Node: {
      type: 'object',
      properties: {
        id: { type: 'integer' },
        name: { type: 'string', maxLength: 50 },
        parent: { anyOf: [{ $ref: '#/$defs/Node' }, { type: 'null' }] },
        children: { type: 'array', items: { $ref: '#/$defs/Node' } },
        related: { type: 'object', additionalProperties: { $ref: '#/$defs/Node' } },
      },
    },
  },
  properties: {
    id: { type: 'integer' },
    name: { type: 'string', maxLength: 50 },
    parent: { anyOf: [{ $ref: '#/$defs/Node' }, { type: 'null' }] },
    children: { type: 'array', items: { $ref: '#/$defs/Node' } },
    related: { type: 'object', additionalProperties: { $ref: '#/$defs/Node' } },
  },
};

function viewSet(schema: unknown) {
  return class NodeViewSet extends ModelViewSet<TreeNode> {
    override queryset = fromArray<TreeNode>([{ id: 1, name: 'root', parent: null, children: [] }]);
    override schema = schema as never;
    override writableFields = ['name', 'parent', 'children', 'related'];
    override performCreate = (values: WriteValues) => values as unknown as TreeNode;
  };
}

async function options(schema: unknown) {
  const routes = new DefaultRouter()
    .register('nodes', viewSet(schema), { basename: 'node' })
    .addTo(new Routes(), '/api');
  const match = routes.match('/api/nodes/')!;
  const request = new ApiRequest({ url: 'http://testserver/api/nodes/', method: 'OPTIONS' });
  request.routes = routes;
  const started = performance.now();
  const response = (await match.handler!(request)) as ApiResponse;
  const text = String(response.data);
  const ms = performance.now() - started;
  const openapi = JSON.stringify(buildOpenApiDocument(routes, { title: 'Nodes', version: '1' }));
  return { bytes: text.length, ms, body: JSON.parse(text), openapiBytes: openapi.length };
}

describe('recursive schemas in OPTIONS and OpenAPI', () => {
  // The item's own fields name the tree once: its fields are listed there, and inside them the
  // tree's recursive fields are its type alone.
  for (const [name, schema] of [
    ['a Zod tree (parent/children) as fields of the item', Category],
    ['a JSON Schema with 3 self-references', THREE_SELF_REFERENCES],
  ] as const) {
    it(`${name}: each recursive field is described once, and the answer stays small`, async () => {
      const answer = await options(schema);
      console.log(
        `${name}: OPTIONS ${answer.bytes} bytes in ${answer.ms.toFixed(1)} ms; OpenAPI ${answer.openapiBytes} bytes`,
      );
      expect(answer.bytes).toBeLessThan(4000);
      expect(answer.openapiBytes).toBeLessThan(20_000);
      const post = answer.body.actions.POST;
      expect(post.name).toMatchObject({ type: 'string', max_length: 50 });
      expect(post.parent).toMatchObject({ type: 'nested object', required: true, read_only: false });
      expect(post.parent.children.name).toMatchObject({ type: 'string', max_length: 50 });
      expect(post.parent.children.parent).toMatchObject({ type: 'nested object', label: 'Parent' });
      expect(post.parent.children.parent.children).toBeUndefined();
      expect(post.children).toMatchObject({ type: 'list', child: { type: 'nested object' } });
      expect(post.children.child.children.children).toMatchObject({
        type: 'list',
        label: 'Children',
        child: { type: 'nested object' },
      });
      expect(post.children.child.children.children.child.children).toBeUndefined();
    });
  }

  it('a Zod tree as the item itself ($ref "#"): its recursive fields are their type alone', async () => {
    const answer = await options(Tree);
    expect(answer.bytes).toBeLessThan(2000);
    const post = answer.body.actions.POST;
    expect(post.parent).toMatchObject({ type: 'nested object', required: true, read_only: false });
    expect(post.parent.children).toBeUndefined();
    expect(post.children).toMatchObject({ type: 'list', child: { type: 'nested object' } });
    expect(post.children.child.children).toBeUndefined();
  });

  it('a schema that is only deep, not recursive, is still described to its leaves', async () => {
    let schema: Record<string, unknown> = { type: 'string', maxLength: 3 };
    for (let i = 0; i < 6; i += 1) schema = { type: 'object', properties: { inner: schema } };
    const answer = await options({ type: 'object', properties: { name: { type: 'string' }, deep: schema } });
    let field = answer.body.actions.POST.deep;
    for (let i = 0; i < 6; i += 1) field = field.children.inner;
    expect(field).toMatchObject({ type: 'string', max_length: 3 });
  });
});
