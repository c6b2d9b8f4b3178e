// DRF 3.15+'s 404 for a missing object (issue 32, item 6), ported from tests/test_generics.py: since
// DRF #8051 the detail names the model, "No BasicModel matches the given query.". A viewset names
// its model with `modelName`; without one, the router's basename in PascalCase ('blog-post' is
// BlogPost), else the class name without ViewSet.

import { fromArray } from '@pagewise/memory-adapter';
import {
  ApiRequest,
  type ApiResponse,
  type FilterBackend,
  ModelViewSet,
  type OrderedQuery,
  ReadOnlyModelViewSet,
  Routes,
  SimpleRouter,
  type WriteContext,
  type WriteValues,
} from '@pagewise/rest';
import { describe, expect, it } from 'vitest';

interface BasicModel {
  readonly id: number;
  readonly text: string;
}

const ROWS: readonly BasicModel[] = [
  { id: 1, text: 'foo' },
  { id: 2, text: 'bar' },
  { id: 3, text: 'baz' },
];

/** DRF's `InstanceView`: RetrieveUpdateDestroyAPIView over BasicModel. */
class InstanceView extends ModelViewSet<BasicModel> {
  override modelName = 'BasicModel';
  override paginationClass = null;
  override writableFields = ['text'];
  rows: BasicModel[] = [...ROWS];
  override getQueryset = async () => fromArray(this.rows);
  override performUpdate = (values: WriteValues, { instance }: WriteContext<BasicModel>) => ({
    ...instance!,
    ...values,
  });
}

/** DRF's `ExclusiveFilterBackend`: leaves out every row. */
const exclusiveFilterBackend: FilterBackend = {
  filterQueryset: <Row>(_request: ApiRequest, _query: OrderedQuery<Row>) => fromArray<Row>([]),
};

const DETAIL = { get: 'retrieve', put: 'update', patch: 'partialUpdate', delete: 'destroy' } as const;

async function send(
  handler: (request: ApiRequest) => unknown,
  method: string,
  pk: string,
  body?: unknown,
): Promise<{ status: number; data: unknown }> {
  const request = new ApiRequest({
    url: `http://testserver/${pk}`,
    method,
    params: { id: pk },
    ...(body === undefined
      ? {}
      : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  const response = (await handler(request)) as ApiResponse;
  const text = String(response.data ?? '');
  return { status: response.status, data: text === '' ? null : JSON.parse(text) };
}

describe('TestInstanceView (tests/test_generics.py)', () => {
  const NO_BASIC_MODEL = { detail: 'No BasicModel matches the given query.' };

  it('test_get_instance_view_filters_out_name_with_filter_backend', async () => {
    const view = InstanceView.actions(DETAIL, { filterBackends: [exclusiveFilterBackend] });
    expect(await send(view, 'GET', '1')).toEqual({ status: 404, data: NO_BASIC_MODEL });
  });

  it('test_get_instance_view_will_return_single_object_when_filter_does_not_exclude_it', async () => {
    expect(await send(InstanceView.actions(DETAIL), 'GET', '1')).toEqual({
      status: 200,
      data: { id: 1, text: 'foo' },
    });
  });

  it('test_put_to_deleted_instance and test_patch_cannot_create_an_object: the model is named', async () => {
    const view = InstanceView.actions(DETAIL);
    expect(await send(view, 'PUT', '999', { text: 'foobar' })).toEqual({ status: 404, data: NO_BASIC_MODEL });
    expect(await send(view, 'PATCH', '999', { text: 'foobar' })).toEqual({
      status: 404,
      data: NO_BASIC_MODEL,
    });
    expect(await send(view, 'DELETE', '999')).toEqual({ status: 404, data: NO_BASIC_MODEL });
  });

  it("test_get_instance_view_incorrect_arg: 404, not 500, DRF's bare 'Not found.' (issue 36 §5)", async () => {
    // get_object_or_404 turns int('a')'s ValueError into a bare Http404: no model named.
    expect(await send(InstanceView.actions(DETAIL), 'GET', 'a')).toEqual({
      status: 404,
      data: { detail: 'Not found.' },
    });
  });
});

describe('how a viewset names its model', () => {
  class BlogPostViewSet extends ReadOnlyModelViewSet<BasicModel> {
    override paginationClass = null;
    override queryset = fromArray(ROWS);
  }

  const detail = async (routes: Routes, path: string) => {
    const match = routes.match(path)!;
    const request = new ApiRequest({ url: `http://testserver${path}`, params: match.params });
    const response = (await match.handler!(request)) as ApiResponse;
    return [response.status, JSON.parse(String(response.data))];
  };

  it("modelName first, then the router's basename in PascalCase, then the class name", async () => {
    const named = new SimpleRouter().register('posts', BlogPostViewSet, {
      basename: 'post',
      options: { modelName: 'Article' },
    }).routes;
    expect(await detail(named, '/posts/9/')).toEqual([
      404,
      { detail: 'No Article matches the given query.' },
    ]);
    const byBasename = new SimpleRouter().register('posts', BlogPostViewSet, {
      basename: 'blog-post',
    }).routes;
    expect(await detail(byBasename, '/posts/9/')).toEqual([
      404,
      { detail: 'No BlogPost matches the given query.' },
    ]);
    const byClass = new Routes().add('/posts/:id/', 'post', BlogPostViewSet.actions({ get: 'retrieve' }));
    expect(await detail(byClass, '/posts/9/')).toEqual([
      404,
      { detail: 'No BlogPost matches the given query.' },
    ]);
  });
});
