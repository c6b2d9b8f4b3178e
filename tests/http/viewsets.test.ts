// Viewsets behind every binding: request bodies reach the write actions whether the framework
// hands over the stream (node:http, Express without a body parser, Hono) or a parsed body
// (Fastify); routers' configuration mistakes are ConfigurationErrors raised at registration.

import { fromArray } from '@pagewise/memory-adapter';
import {
  type ApiRequest,
  ApiResponse,
  ConfigurationError,
  GenericViewSet,
  ModelViewSet,
  NotFound,
  SimpleRouter,
  type WriteContext,
  type WriteValues,
} from '@pagewise/rest';
import { describe, expect, it } from 'vitest';
import { describeBindings, useServer } from './bindings.js';

interface Note {
  readonly id: number;
  readonly text: string;
}

/** A memory-backed store: arrays are read-only to the adapter, so the perform hooks write. */
function noteRoutes() {
  let notes: Note[] = [{ id: 1, text: 'first' }];
  class NoteViewSet extends ModelViewSet<Note> {
    override paginationClass = null;
    override writableFields = ['text'];
    override getQueryset = async () => fromArray(notes);
    override performCreate = (values: WriteValues) => {
      const note = { id: Math.max(0, ...notes.map((n) => n.id)) + 1, text: String(values.text) };
      notes = [...notes, note];
      return note;
    };
    override performUpdate = (values: WriteValues, { instance }: WriteContext<Note>) => {
      const note = { ...instance!, ...values } as Note;
      notes = notes.map((n) => (n.id === note.id ? note : n));
      return note;
    };
    override performDestroy = ({ instance }: WriteContext<Note>) => {
      notes = notes.filter((n) => n.id !== instance!.id);
    };
  }
  return new SimpleRouter().register('notes', NoteViewSet, { basename: 'note' }).routes;
}

describeBindings('viewsets', (binding) => {
  const get = useServer(binding, { routes: noteRoutes() });
  const call = async (path: string, init: { method?: string; body?: string; type?: string } = {}) => {
    const response = await fetch(get().server.origin + path, {
      method: init.method ?? 'GET',
      ...(init.body === undefined
        ? {}
        : { body: init.body, headers: { 'content-type': init.type ?? 'application/json' } }),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
  };

  it('create, partial update and destroy read the JSON body', async () => {
    expect(await call('/notes/', { method: 'POST', body: '{"text": "second", "id": 99}' })).toMatchObject({
      status: 201,
      body: { id: 2, text: 'second' },
    });
    expect(await call('/notes/2/', { method: 'PATCH', body: '{"text": "edited"}' })).toMatchObject({
      status: 200,
      body: { id: 2, text: 'edited' },
    });
    expect(await call('/notes/2/', { method: 'PUT', body: '{}' })).toMatchObject({
      status: 400,
      body: { text: ['This field is required.'] },
    });
    expect((await call('/notes/2/', { method: 'DELETE' })).status).toBe(204);
    expect((await call('/notes/')).body).toEqual([{ id: 1, text: 'first' }]);
    expect(get().errors).toEqual([]);
  });

  it('a malformed body is 400, an empty one counts as {}', async () => {
    const broken = await call('/notes/', { method: 'POST', body: '{"text": ' });
    expect(broken.status).toBe(400);
    const empty = await call('/notes/', { method: 'POST', body: '' });
    expect(empty.status).toBe(400);
    // Fastify refuses an empty JSON body itself, before any handler runs.
    if (binding.name !== 'fastify') expect(empty.body).toEqual({ text: ['This field is required.'] });
  });
});

describe('router configuration', () => {
  class Plain extends GenericViewSet<Note> {
    override queryset = fromArray<Note>([{ id: 1, text: 'x' }]);
    override async retrieve(request: ApiRequest): Promise<ApiResponse> {
      const row = await this.getObject(request);
      return new ApiResponse({ only: row.text });
    }
  }

  it('a GenericViewSet routes only the actions its subclass defines', () => {
    const routes = new SimpleRouter().register('plain', Plain).routes.routes;
    expect(routes.map((r) => [r.fullName, r.pattern])).toEqual([['plain-detail', '/plain/:id([^/.]+)/']]);
  });

  it('rejects prefixes with slashes around them, duplicate basenames and non-viewsets', () => {
    expect(() => new SimpleRouter().register('/plain/', Plain)).toThrow(ConfigurationError);
    expect(() =>
      new SimpleRouter().register('a', Plain, { basename: 'x' }).register('b', Plain, { basename: 'x' }),
    ).toThrow(/registered twice/);
    expect(() => new SimpleRouter().register('a', class {} as unknown as typeof Plain)).toThrow(
      /not a viewset/,
    );
  });

  it('writes without writableFields or validate are a ConfigurationError naming the fix', async () => {
    class Unchecked extends ModelViewSet<Note> {
      override queryset = fromArray<Note>([]);
    }
    const handler = Unchecked.actions({ post: 'create' });
    const { ApiRequest: Request } = await import('@pagewise/rest');
    await expect(
      handler(new Request({ url: 'http://testserver/', method: 'POST', body: '{"text": "x"}' })),
    ).rejects.toThrow(/writes need writableFields or a validate hook/);
  });

  it('a lookup field other than id names the detail route parameter', async () => {
    class ByText extends GenericViewSet<Note> {
      override lookupField = 'text';
      override queryset = fromArray<Note>([{ id: 1, text: 'hello' }]);
      override async retrieve(request: ApiRequest) {
        return new ApiResponse(await this.getObject(request));
      }
    }
    const routes = new SimpleRouter().register('notes', ByText, { basename: 'note' }).routes;
    expect(routes.reversePath('note-detail', [], { text: 'hello' })).toBe('/notes/hello/');
    const match = routes.match('/notes/hello/')!;
    const { ApiRequest: Request } = await import('@pagewise/rest');
    const answer = (await match.handler!(
      new Request({ url: 'http://testserver/notes/hello/', params: match.params }),
    )) as ApiResponse;
    expect(JSON.parse(String(answer.data))).toEqual({ id: 1, text: 'hello' });
    const missing = routes.match('/notes/nope/')!;
    const absent = (await missing.handler!(
      new Request({ url: 'http://testserver/notes/nope/', params: missing.params }),
    )) as ApiResponse;
    expect([absent.status, JSON.parse(String(absent.data))]).toEqual([
      404,
      new NotFound('No Note matches the given query.').toJSON(),
    ]);
  });
});
