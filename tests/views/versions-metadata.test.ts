// OPTIONS under a version bundle (issue 39): the write's fields are those of the request's
// version, the item schema through the bundle's `schema` changes, as the OpenAPI document of that
// version shows them; the newest version lists the newest fields.

import { fromArray } from '@pagewise/memory-adapter';
import {
  ApiRequest,
  type ApiResponse,
  type JsonSchema,
  ModelViewSet,
  URLPathVersioning,
  versionBundle,
  versionChange,
} from '@pagewise/rest';
import { expect, test } from 'vitest';

const renameName = versionChange({
  description: 'Authors have `name` instead of `displayName`.',
  response: ({ displayName, ...rest }: Record<string, unknown>) => ({ ...rest, name: displayName }),
  schema: (schema: JsonSchema) => {
    const { displayName, ...properties } = schema.properties as Record<string, JsonSchema>;
    return { ...schema, properties: { ...properties, name: displayName! } };
  },
});

class Authors extends ModelViewSet<{ id: number; displayName: string }> {
  override paginationClass = null;
  override versioningClass = URLPathVersioning;
  override versionBundle = versionBundle({
    ordered: 'listed',
    versions: [{ version: 'v2', changes: [renameName] }, { version: 'v1' }],
  });
  override queryset = fromArray([{ id: 1, displayName: 'Ada' }]);
  override schema = {
    type: 'object',
    properties: { id: { type: 'integer', readOnly: true }, displayName: { type: 'string' } },
  };
}

test("OPTIONS lists the fields of the request's version", async () => {
  const handler = Authors.actions({ get: 'list', post: 'create' }, { suffix: 'List' });
  const actions = async (version: string) => {
    const request = new ApiRequest({
      url: `http://testserver/${version}/authors/`,
      method: 'OPTIONS',
      params: { version },
    });
    const response = (await handler(request)) as ApiResponse;
    return Object.keys((JSON.parse(String(response.data)) as { actions: { POST: object } }).actions.POST);
  };
  expect(await actions('v2')).toEqual(['id', 'displayName']);
  expect(await actions('v1')).toEqual(['id', 'name']);
});
