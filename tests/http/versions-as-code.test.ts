// Versions as code (issue 39) over real HTTP on every binding: one view written for the newest
// version serves every version of a dated bundle through its changes: list items (never the
// envelope or links, unless a change touches the envelope explicitly), details, writes converted
// forward before validation and back, error bodies, Link headers, `Api-Version`, date fallback,
// HeaderVersioning and a defaultVersion function, and a cursor walk switching version every page.

import { fromArray } from '@pagewise/memory-adapter';
import {
  type ApiRequest,
  ApiSettings,
  apiView,
  CursorPagination,
  HeaderVersioning,
  ModelViewSet,
  QueryParameterVersioning,
  Routes,
  SimpleRouter,
  URLPathVersioning,
  versionBundle,
  versionChange,
  type WriteValues,
} from '@pagewise/rest';
import { describe, expect, it } from 'vitest';
import { type Answer, describeBindings, send, useServer } from './bindings.js';

interface Row {
  readonly id: number;
  readonly headline: string;
  readonly summary: string;
  readonly text: string;
  readonly published: string;
}

const ROWS: readonly Row[] = Array.from({ length: 7 }, (_, index) => ({
  id: index + 1,
  headline: `Headline ${index + 1}`,
  summary: `S${index + 1}`,
  text: `T${index + 1}`,
  // Pairs share a day: the cursor's position needs the id as well.
  published: `2025-0${1 + Math.floor(index / 2)}-01`,
}));

type Item = Record<string, unknown>;

/** 2026-01-10: the list envelope was `data` before (and `published` was `published_on`). */
const dataEnvelope = versionChange({
  description: 'Lists hold their items in `data` instead of `results`.',
  envelope: ({ results, ...rest }: { results: unknown[] }) => ({ ...rest, data: results }),
});
const renamePublished = versionChange({
  description: 'Articles have `published_on` instead of `published`.',
  response: ({ published, ...rest }: Item) => ({ ...rest, published_on: published }),
  request: ({ published_on, ...rest }) =>
    published_on === undefined ? rest : { ...rest, published: published_on },
});
/** 2025-11-15: `summary` and `text` were one `body`; `headline` was `title`. */
const splitBody = versionChange({
  description: 'Articles have one `body` instead of `summary` and `text`.',
  response: ({ summary, text, ...rest }: Item) => ({ ...rest, body: `${summary}\n\n${text}` }),
  request: ({ body, ...rest }) => {
    if (typeof body !== 'string') return rest;
    const [summary = '', ...text] = body.split('\n\n');
    return { ...rest, summary, text: text.join('\n\n') };
  },
});
const renameHeadline = versionChange({
  description: 'Articles have `title` instead of `headline`.',
  response: ({ headline, ...rest }: Item) => ({ ...rest, title: headline }),
  request: ({ title, ...rest }) => (title === undefined ? rest : { ...rest, headline: title }),
});

const BUNDLE = versionBundle({
  versions: [
    { version: '2026-01-10', changes: [dataEnvelope, renamePublished] },
    { version: '2025-11-15', changes: [splitBody, renameHeadline] },
    { version: '2025-06-01' },
  ],
});

class ByPublished extends CursorPagination {
  override pageSize = 2;
  override ordering = ['published', 'id'];
}

/** Keys pinned to the version they were created on (a date between two versions falls back). */
const KEYS: Readonly<Record<string, string>> = { 'key-old': '2025-07-04', 'key-mid': '2025-12-25' };

const SETTINGS = new ApiSettings({ versionBundle: BUNDLE });

function routes(): Routes {
  const created: Row[] = [];
  class Articles extends ModelViewSet<Row> {
    override paginationClass = ByPublished;
    override getQueryset = async () => fromArray([...ROWS, ...created]);
    override writableFields = ['headline', 'summary', 'text', 'published'];
    override performCreate = (values: WriteValues) => {
      const row = { id: 100 + created.length, ...(values as Omit<Row, 'id'>) };
      created.push(row);
      return row;
    };
  }
  const header = HeaderVersioning.withOptions({
    defaultVersion: (request: ApiRequest) => KEYS[request.headers.get('authorization') ?? ''] ?? null,
  });
  const register = (basename: string, options: object) =>
    new SimpleRouter().register('articles', Articles, {
      basename,
      options: { modelName: 'Article', ...options },
    });
  const table = new Routes();
  register('header-article', { versioningClass: header, versionBundle: BUNDLE }).addTo(table, '/header');
  register('stripe-article', {
    versioningClass: HeaderVersioning.withOptions({ header: 'Stripe-Version' }),
    versionBundle: BUNDLE,
  }).addTo(table, '/stripe');
  // The bundle from the settings.
  register('path-article', { versioningClass: URLPathVersioning, settings: SETTINGS }).addTo(
    table,
    '/path/:version',
  );
  return table
    .add(
      '/query/echo/',
      'echo',
      apiView(
        (request: ApiRequest) => ({ headline: 'H', summary: 'S', text: 'T', version: request.version }),
        {
          versioningClass: QueryParameterVersioning,
          versionBundle: BUNDLE,
          convert: 'item',
        },
      ),
    )
    .add(
      '/query/plain/',
      'plain',
      apiView((request: ApiRequest) => ({ headline: 'H', version: request.version }), {
        versioningClass: QueryParameterVersioning,
        settings: SETTINGS,
      }),
    );
}

describeBindings('versions as code', (binding) => {
  const get = useServer(binding, { routes: routes(), allowedHosts: ['127.0.0.1'] });
  const call = (path: string, headers: Record<string, string> = {}) => send(get().server, path, { headers });
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> => {
    const response = await fetch(get().server.origin + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
  };
  const page = (answer: Answer) => answer.json() as Record<string, unknown>;

  describe('lists: items converted, the envelope and its links only by an envelope hook', () => {
    it('the newest version is the view as written', async () => {
      const answer = await call('/header/articles/', { 'api-version': '2026-01-10' });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('api-version')).toBe('2026-01-10');
      const body = page(answer);
      expect(Object.keys(body)).toEqual(['next', 'previous', 'results']);
      expect((body.results as Item[])[0]).toEqual(ROWS[0]);
    });

    it('one version back: the envelope key and a field renamed, the links untouched', async () => {
      const answer = await call('/header/articles/', { 'api-version': '2025-11-15' });
      const body = page(answer);
      expect(Object.keys(body)).toEqual(['next', 'previous', 'data']);
      expect((body.data as Item[])[0]).toEqual({
        ...omit(ROWS[0]!, 'published'),
        published_on: '2025-01-01',
      });
      expect(body.next).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/header\/articles\/\?cursor=/);
      expect(answer.headers.get('vary')).toContain('Api-Version');
    });

    it('the oldest version runs every change, newest first', async () => {
      const body = page(await call('/header/articles/', { 'api-version': '2025-06-01' }));
      expect((body.data as Item[])[0]).toEqual({
        id: 1,
        title: 'Headline 1',
        body: 'S1\n\nT1',
        published_on: '2025-01-01',
      });
    });
  });

  describe('dates fall back to the nearest earlier version', () => {
    it('2025-12-25 is served by 2025-11-15, and says so', async () => {
      const answer = await call('/header/articles/1/', { 'api-version': '2025-12-25' });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('api-version')).toBe('2025-11-15');
      expect(answer.json()).toEqual({ ...omit(ROWS[0]!, 'published'), published_on: '2025-01-01' });
    });

    it('a date after the newest is served by the newest', async () => {
      const answer = await call('/header/articles/1/', { 'api-version': '2031-02-03' });
      expect([answer.status, answer.headers.get('api-version')]).toEqual([200, '2026-01-10']);
    });

    it("before the oldest, not a date, or not a calendar date: the scheme's error, no Api-Version, Vary kept", async () => {
      for (const version of ['2025-05-31', 'v1', '2025-13-01']) {
        const answer = await call('/header/articles/', { 'api-version': version });
        expect([answer.status, answer.json()]).toEqual([
          404,
          { detail: 'Invalid version in "Api-Version" header.' },
        ]);
        expect(answer.headers.get('api-version')).toBeNull();
        expect(answer.headers.get('vary')).toContain('Api-Version');
      }
    });

    it('the URL path scheme keeps its own DRF error and takes a dated path', async () => {
      const refused = await call('/path/2025-05-31/articles/');
      expect([refused.status, refused.json()]).toEqual([404, { detail: 'Invalid version in URL path.' }]);
      expect(refused.headers.get('api-version')).toBeNull();
      const served = await call('/path/2025-12-25/articles/');
      expect([served.status, served.headers.get('api-version')]).toEqual([200, '2025-11-15']);
      // The bundle came from the settings; the links keep the path the client used.
      expect(page(served).next).toMatch(/\/path\/2025-12-25\/articles\/\?cursor=/);
    });
  });

  describe('errors and headers under every version', () => {
    it('a missing item answers the same 404 body under each version, with Api-Version', async () => {
      for (const version of BUNDLE.versions) {
        const answer = await call('/header/articles/999/', { 'api-version': version });
        expect([answer.status, answer.json()]).toEqual([
          404,
          { detail: 'No Article matches the given query.' },
        ]);
        expect(answer.headers.get('api-version')).toBe(version);
      }
    });

    it('an invalid cursor is the same 404 under each version', async () => {
      for (const version of BUNDLE.versions) {
        const answer = await call('/header/articles/?cursor=bogus', { 'api-version': version });
        expect([answer.status, answer.json()]).toEqual([404, { detail: 'Invalid cursor' }]);
      }
    });

    it('Stripe-Version names the response header too', async () => {
      const answer = await call('/stripe/articles/1/', { 'stripe-version': '2025-07-01' });
      expect([answer.headers.get('stripe-version'), answer.headers.get('api-version')]).toEqual([
        '2025-06-01',
        null,
      ]);
      expect(answer.headers.get('vary')).toContain('Stripe-Version');
      const refused = await call('/stripe/articles/', { 'stripe-version': 'nope' });
      expect(refused.json()).toEqual({ detail: 'Invalid version in "Stripe-Version" header.' });
    });
  });

  describe('pinned clients: defaultVersion as a function of the request', () => {
    it('a key is served by the version it was created on; no key, the newest; a named version wins', async () => {
      const old = await call('/header/articles/1/', { authorization: 'key-old' });
      expect([old.headers.get('api-version'), (old.json() as Item).title]).toEqual([
        '2025-06-01',
        'Headline 1',
      ]);
      const mid = await call('/header/articles/1/', { authorization: 'key-mid' });
      expect(mid.headers.get('api-version')).toBe('2025-11-15');
      const none = await call('/header/articles/1/');
      expect(none.headers.get('api-version')).toBe('2026-01-10');
      const named = await call('/header/articles/1/', {
        authorization: 'key-old',
        'api-version': '2026-01-10',
      });
      expect(named.headers.get('api-version')).toBe('2026-01-10');
    });
  });

  describe('writes: the body converted forward before validation, the answer back', () => {
    it('an old body is created as the newest version reads it, and answered in the old shape', async () => {
      const answer = await post(
        '/header/articles/',
        { title: 'Old style', body: 'Sum\n\nRest', published_on: '2025-09-09' },
        { 'api-version': '2025-06-01' },
      );
      expect(answer.status).toBe(201);
      expect(answer.headers.get('api-version')).toBe('2025-06-01');
      const created = answer.json() as Item;
      expect(omit(created, 'id')).toEqual({
        title: 'Old style',
        body: 'Sum\n\nRest',
        published_on: '2025-09-09',
      });
      const newest = (await call(`/header/articles/${created.id}/`)).json();
      expect(newest).toEqual({
        id: created.id,
        headline: 'Old style',
        summary: 'Sum',
        text: 'Rest',
        published: '2025-09-09',
      });
    });

    it("validation errors speak the newest version's field names", async () => {
      const answer = await post('/header/articles/', { title: 'No body' }, { 'api-version': '2025-06-01' });
      expect(answer.status).toBe(400);
      expect(answer.json()).toEqual({
        summary: ['This field is required.'],
        text: ['This field is required.'],
        published: ['This field is required.'],
      });
      expect(answer.headers.get('api-version')).toBe('2025-06-01');
    });
  });

  describe('apiView converts only when it opts in', () => {
    it('convert: item', async () => {
      const answer = await call('/query/echo/?version=2025-06-01');
      expect(answer.json()).toEqual({ version: '2025-06-01', title: 'H', body: 'S\n\nT' });
      expect(answer.headers.get('api-version')).toBe('2025-06-01');
    });

    it('no opt-in: the body as the handler wrote it, still with Api-Version', async () => {
      const answer = await call('/query/plain/?version=2025-12-25');
      expect(answer.json()).toEqual({ headline: 'H', version: '2025-11-15' });
      expect(answer.headers.get('api-version')).toBe('2025-11-15');
    });

    it('a refused version: DRF error, no Api-Version', async () => {
      const answer = await call('/query/plain/?version=1999-01-01');
      expect([answer.status, answer.json()]).toEqual([
        404,
        { detail: 'Invalid version in query parameter.' },
      ]);
      expect(answer.headers.get('api-version')).toBeNull();
    });
  });

  describe('cursors across versions', () => {
    it('a walk switching version on every page sees every row once, in order', async () => {
      const versions = ['2026-01-10', '2025-06-01', '2025-11-15', '2025-12-25'];
      const seen: number[] = [];
      let url: string | null = '/header/articles/';
      for (let step = 0; url !== null && step < 20; step += 1) {
        const version = versions[step % versions.length]!;
        const body = page(await call(url, { 'api-version': version }));
        const items = (body.results ?? body.data) as Item[];
        // The ordering field is renamed in the older bodies; the cursor holds the database's position.
        for (const item of items) expect(item.published ?? item.published_on).toMatch(/^2025-/);
        seen.push(...items.map((item) => item.id as number));
        url = typeof body.next === 'string' ? new URL(body.next).pathname + new URL(body.next).search : null;
      }
      const expected = ROWS.map((row) => row.id).filter((id) => id < 100);
      expect(seen.filter((id) => id < 100)).toEqual(expected);
    });
  });
});

function omit(item: object, key: string): Item {
  const { [key]: _dropped, ...rest } = item as Item;
  return rest;
}
