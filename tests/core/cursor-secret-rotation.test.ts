import { fromArray } from '@pagewise/memory-adapter';
import {
  ApiRequest,
  ConfigurationError,
  CursorPagination,
  connectionFromQuery,
  cursorPage,
  NotFound,
  paginateCursor,
  streamRows,
} from '@pagewise/rest';
import { describe, expect, it } from 'vitest';

// Cursor secrets that rotate (issue 29): `cursorSecret` takes a list, the first key signs and every
// key verifies, so a deployment puts a new key in front and clients mid-walk keep walking.

const rows = Array.from({ length: 30 }, (_, i) => ({
  id: i + 1,
  created: new Date(Date.UTC(2024, 0, 1 + (i % 7))),
}));
const query = () => fromArray(rows, { uniqueKey: 'id' });
const ordering = ['-created'];
const ids = (list: ReadonlyArray<{ id: number }>) => list.map((r) => r.id);

/** A CursorPagination page over HTTP under `cursorSecret`, from `cursor`. */
async function httpPage(cursorSecret: string | readonly string[], cursor: string | null) {
  const url = cursor === null ? 'http://testserver/items' : `http://testserver/items?cursor=${cursor}`;
  const page = await new CursorPagination({ pageSize: 4, ordering, cursorSecret }).paginate(
    query(),
    new ApiRequest({ url }),
  );
  const token = (link: string | null) => (link === null ? null : new URL(link).searchParams.get('cursor'));
  return { ids: ids(page!.rows), next: token(page!.next), previous: token(page!.previous) };
}

describe('cursor secrets that rotate', () => {
  it('CursorPagination: a walk begun under the old key goes on after the new key is put in front', async () => {
    const first = await httpPage('old', null);
    const second = await httpPage(['new', 'old'], first.next);
    const expected = await httpPage('old', first.next);
    expect(second.ids).toEqual(expected.ids);
    // The links of the rotated deployment are signed with the new key: they verify under it alone.
    expect((await httpPage('new', second.next)).ids).toEqual((await httpPage('old', expected.next)).ids);
    await expect(httpPage('old', second.next)).rejects.toThrow(new NotFound('Invalid cursor'));
    // Once the old key is dropped, its cursors are refused.
    await expect(httpPage(['new'], first.next)).rejects.toThrow(new NotFound('Invalid cursor'));
    // Walking back from a page reached with an old token works too.
    expect((await httpPage(['new', 'old'], second.previous)).ids).toEqual(first.ids);
  });

  it('paginateCursor: old tokens verify, new tokens are signed with the first key', async () => {
    const walk: number[] = [];
    let page = await paginateCursor(query(), { pageSize: 4, ordering, cursorSecret: 'k1' });
    walk.push(...ids(page.results));
    // Rotate twice during the walk: k2 in front, then k3 in front, k1 dropped.
    const keys = [
      ['k2', 'k1'],
      ['k3', 'k2'],
      ['k3', 'k2'],
      ['k3', 'k2'],
      ['k3', 'k2'],
      ['k3', 'k2'],
      ['k3', 'k2'],
    ];
    for (const cursorSecret of keys) {
      if (page.nextCursor === null) break;
      page = await paginateCursor(query(), { pageSize: 4, ordering, cursorSecret, cursor: page.nextCursor });
      walk.push(...ids(page.results));
    }
    expect(page.nextCursor).toBeNull();
    const all = await paginateCursor(query(), { pageSize: 100, ordering });
    expect(walk).toEqual(ids(all.results));
  });

  it('connectionFromQuery and streamRows take the list too', async () => {
    const old = await connectionFromQuery(query(), { first: 5 }, { ordering, cursorSecret: 'old' });
    const rotated = await connectionFromQuery(
      query(),
      { first: 5, after: old.pageInfo.endCursor },
      { ordering, cursorSecret: ['new', 'old'] },
    );
    const plain = await connectionFromQuery(query(), { first: 10 }, { ordering });
    expect(rotated.edges.map((e) => e.node.id)).toEqual(plain.edges.slice(5).map((e) => e.node.id));
    await expect(
      connectionFromQuery(
        query(),
        { first: 5, after: old.pageInfo.endCursor },
        { ordering, cursorSecret: ['new'] },
      ),
    ).rejects.toThrow(new NotFound('Invalid cursor'));

    const streamed: number[] = [];
    for await (const row of streamRows(query(), {
      ordering,
      batchSize: 3,
      after: old.pageInfo.endCursor,
      cursorSecret: ['new', 'old'],
    }))
      streamed.push(row.id);
    expect(streamed).toEqual(
      ids((await paginateCursor(query(), { pageSize: 100, ordering })).results).slice(5),
    );
    const refused = streamRows(query(), { ordering, after: old.pageInfo.endCursor, cursorSecret: 'new' });
    await expect(refused[Symbol.asyncIterator]().next()).rejects.toThrow(new NotFound('Invalid cursor'));
  });

  it('refuses a list that could sign nothing, instead of leaving cursors unsigned', async () => {
    for (const cursorSecret of [[], [''], ['ok', ''], [42]] as unknown as string[][]) {
      await expect(paginateCursor(query(), { pageSize: 4, ordering, cursorSecret })).rejects.toThrow(
        ConfigurationError,
      );
    }
  });

  // Issue 36 §2: an empty environment variable (`cursorSecret: process.env.CURSOR_SECRET ?? ''`)
  // silently turned signing off, and `[]` was only refused at the first request.
  it("refuses '' and [] at construction, for the class and for every page function", async () => {
    let fetched = 0;
    const counted = () => {
      const q = query();
      const fetch = q.fetch.bind(q);
      return Object.assign(q, {
        fetch: (spec: Parameters<typeof fetch>[0]) => {
          fetched += 1;
          return fetch(spec);
        },
      });
    };
    for (const cursorSecret of ['', []] as unknown as string[]) {
      expect(() => new CursorPagination({ pageSize: 4, ordering, cursorSecret })).toThrow(ConfigurationError);
      expect(() => new CursorPagination({ pageSize: 4, ordering, cursorSecret })).toThrow(/cursorSecret/);
      class Subclassed extends CursorPagination {
        override pageSize = 4;
        override cursorSecret = cursorSecret;
      }
      // A subclass field is only set once the base constructor has run: refused before any query.
      await expect(
        new Subclassed().paginate(counted(), new ApiRequest({ url: 'http://testserver/items' })),
      ).rejects.toThrow(ConfigurationError);
      await expect(
        cursorPage(counted(), 'http://testserver/items', { pageSize: 4, ordering, cursorSecret }),
      ).rejects.toThrow(ConfigurationError);
      await expect(paginateCursor(counted(), { pageSize: 4, ordering, cursorSecret })).rejects.toThrow(
        ConfigurationError,
      );
      await expect(connectionFromQuery(counted(), { first: 4 }, { ordering, cursorSecret })).rejects.toThrow(
        ConfigurationError,
      );
      const stream = streamRows(counted(), { ordering, cursorSecret });
      await expect(stream[Symbol.asyncIterator]().next()).rejects.toThrow(ConfigurationError);
    }
    expect(fetched).toBe(0);
  });
});
