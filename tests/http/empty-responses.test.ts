// Issue 32, item 4: an empty response carries no Content-Type, as DRF's (Response.rendered_content
// drops it when the renderer gave nothing), ported from tests/test_renderers.py
// (test_204_no_content_responses_have_no_content_type_set), on every binding. DRF's browsable
// renderer turns a 204 into a 200 to show its page; the JSON one sends nothing.

import { fromArray } from '@pagewise/memory-adapter';
import {
  ApiResponse,
  ApiView,
  jsonRenderer,
  ModelViewSet,
  Routes,
  SimpleRouter,
  type WriteContext,
} from '@pagewise/rest';
import { expect, it } from 'vitest';
import { describeBindings, send, useServer } from './bindings.js';

/** DRF's `EmptyGETView`. */
class EmptyGETView extends ApiView {
  override renderers = [jsonRenderer];
  override get() {
    return new ApiResponse(null, { status: 204 });
  }
}

/** `Response()`: a 200 without data. */
class NoneView extends ApiView {
  override get() {
    return new ApiResponse(null);
  }
}

function routes() {
  let notes = [
    { id: 1, text: 'a' },
    { id: 5, text: 'e' },
  ];
  class NoteViewSet extends ModelViewSet<{ id: number; text: string }> {
    override paginationClass = null;
    override writableFields = ['text'];
    override getQueryset = async () => fromArray(notes);
    override performDestroy = ({ instance }: WriteContext<{ id: number; text: string }>) => {
      notes = notes.filter((note) => note.id !== instance!.id);
    };
  }
  return new SimpleRouter().register('api/notes', NoteViewSet, { basename: 'note' }).addTo(
    new Routes()
      .add('/empty', 'empty', EmptyGETView.asView())
      .add('/none', 'none', NoneView.asView())
      .add('/plain-204', 'plain-204', () => new ApiResponse(null, { status: 204 })),
  );
}

describeBindings('empty responses', (binding) => {
  const get = useServer(binding, { routes: routes() });

  it('test_204_no_content_responses_have_no_content_type_set', async () => {
    const answer = await send(get().server, '/empty');
    expect([answer.status, answer.headers.get('content-type'), answer.text]).toEqual([204, null, '']);
    expect([answer.headers.get('vary'), answer.headers.get('allow')]).toEqual([null, 'GET, HEAD, OPTIONS']);
  });

  it('DELETE /api/notes/5/ is a 204 without Content-Type, with Vary and Allow', async () => {
    const answer = await send(get().server, '/api/notes/5/', { method: 'DELETE' });
    expect([answer.status, answer.headers.get('content-type'), answer.text]).toEqual([204, null, '']);
    expect([answer.headers.get('vary'), answer.headers.get('allow')]).toEqual([
      'Accept',
      'GET, PUT, PATCH, DELETE, HEAD, OPTIONS',
    ]);
  });

  it('a 200 without data has no body and no Content-Type (GET and HEAD), as Response()', async () => {
    for (const method of ['GET', 'HEAD']) {
      const answer = await send(get().server, '/none', { method });
      expect([method, answer.status, answer.headers.get('content-type'), answer.text]).toEqual([
        method,
        200,
        null,
        '',
      ]);
    }
  });

  it('a plain handler’s 204 has no Content-Type either', async () => {
    const answer = await send(get().server, '/plain-204');
    expect([answer.status, answer.headers.get('content-type'), answer.text]).toEqual([204, null, '']);
  });

  it('the browsable renderer answers a 204 as a 200 with its page, as DRF’s', async () => {
    const answer = await send(get().server, '/api/notes/1/', {
      method: 'DELETE',
      headers: { accept: 'text/html' },
    });
    expect([answer.status, answer.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    expect(answer.text).toContain('HTTP 204');
  });
});
