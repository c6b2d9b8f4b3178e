// Pages without HTTP on every backend (issue 13): paginateCursor, streamRows and
// connectionFromQuery give the rows CursorPagination gives over HTTP, with interchangeable tokens.
import {
  ApiRequest,
  type Connection,
  type ConnectionArguments,
  type ConnectionOptions,
  CursorPagination,
  connectionFromQuery,
  encodeCursor,
  NotFound,
  type OrderedQuery,
  type OrderingInput,
  paginateCursor,
  parseOrdering,
  settleNulls,
  streamRows,
  ValidationError,
  type WindowSpec,
} from '@pagewise/rest';
import { expect, it } from 'vitest';
import { itemsDataset, smallDataset } from '../support/datasets.js';
import { type Dataset, normalizeRow } from '../support/tables.js';
import type { ConformanceBackend } from './conformance-suite.js';

type Row = Record<string, unknown>;

const ORIGIN = 'http://testserver/';
const ORDERINGS: Array<[string, OrderingInput, number]> = [
  ['-created', '-created', 5],
  ['-score, name (NULLs, mixed directions)', ['-score', 'name'], 4],
  ['name (code-point order)', 'name', 6],
  ['big, -created', ['big', '-created'], 3],
];

/** A CursorPagination page over HTTP: the normalized rows and the `cursor` tokens of its links. */
async function httpPage(
  query: OrderedQuery<Row>,
  dataset: Dataset,
  options: { pageSize: number; ordering: OrderingInput; cursorSecret?: string },
  cursor: string | null,
) {
  const url = cursor === null ? ORIGIN : `${ORIGIN}?cursor=${cursor}`;
  const page = await new CursorPagination(options).paginate(query, new ApiRequest({ url }));
  const token = (link: string | null) => (link === null ? null : new URL(link).searchParams.get('cursor'));
  return {
    results: page!.rows.map((r) => normalizeRow(dataset, r)),
    next: token(page!.next),
    previous: token(page!.previous),
  };
}

/** `query` with its `fetch` windows recorded, so tests can count statements and check their shape. */
function recorded(query: OrderedQuery<Row>): { query: OrderedQuery<Row>; windows: WindowSpec[] } {
  const windows: WindowSpec[] = [];
  const proxy = new Proxy(query, {
    get(target, property) {
      if (property === 'fetch') {
        return (window: WindowSpec) => {
          windows.push(window);
          return target.fetch(window);
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { query: proxy, windows };
}

const ids = (rows: readonly Row[]) => rows.map((r) => Number(r.id));
const edgeIds = (connection: Connection<Row>) => connection.edges.map((e) => Number(e.node.id));

/** Walks a connection forward by `first`/`after`, then backward by `last`/`before` from the end. */
async function connectionWalks(query: OrderedQuery<Row>, size: number, options: ConnectionOptions) {
  const forward: Connection<Row>[] = [];
  let args: ConnectionArguments = { first: size };
  for (let i = 0; i < 50; i += 1) {
    const page = await connectionFromQuery(query, args, options);
    forward.push(page);
    if (!page.pageInfo.hasNextPage) break;
    args = { first: size, after: page.pageInfo.endCursor };
  }
  const backward: Connection<Row>[] = [];
  args = { last: size };
  for (let i = 0; i < 50; i += 1) {
    const page = await connectionFromQuery(query, args, options);
    backward.push(page);
    if (!page.pageInfo.hasPreviousPage) break;
    args = { last: size, before: page.pageInfo.startCursor };
  }
  return { forward, backward };
}

/**
 * The page functions without HTTP, written once; `backend()` answers the suite's open backend and
 * `reference` is the memory adapter.
 */
export function cursorFunctionCases(
  name: string,
  backend: () => ConformanceBackend,
  reference: ConformanceBackend,
): void {
  const items = itemsDataset();

  for (const [title, ordering, pageSize] of ORDERINGS) {
    it(`[${name}] paginateCursor, ${title}: the HTTP cursor pages, the same tokens, both ways`, async () => {
      const query = await backend().query('items', items);
      const cursorSecret = 'conformance secret';
      const options = { pageSize, ordering, cursorSecret };
      const pages: Row[][] = [];
      let page = await paginateCursor(query, options);
      let http = await httpPage(query, items, options, null);
      for (let i = 0; i < 20; i += 1) {
        const results = page.results.map((r) => normalizeRow(items, r));
        expect(results).toEqual(http.results);
        expect([page.nextCursor, page.previousCursor]).toEqual([http.next, http.previous]);
        expect(Object.isFrozen(page)).toBe(true);
        pages.push(results);
        if (page.nextCursor === null) break;
        // Each follows the other's token: paginateCursor the link's, the link the function's.
        const fromLink = await paginateCursor(query, { ...options, cursor: http.next });
        http = await httpPage(query, items, options, page.nextCursor);
        page = fromLink;
      }
      expect(ids(pages.flat()).sort((a, b) => a - b)).toEqual(ids(items.rows).sort((a, b) => a - b));
      const back: Row[][] = [];
      while (page.previousCursor !== null && back.length < 20) {
        page = await paginateCursor(query, { ...options, cursor: page.previousCursor });
        back.push(page.results.map((r) => normalizeRow(items, r)));
      }
      expect(back).toEqual(pages.slice(0, -1).reverse());
      const memory = await paginateCursor(await reference.query('items', items), options);
      expect(memory.results.map((r) => normalizeRow(items, r))).toEqual(pages[0]);
    });
  }

  it(`[${name}] paginateCursor defaults to the query's own ordering, and refuses bad input`, async () => {
    const query = await backend().orderedById('items', items);
    const page = await paginateCursor(query, { pageSize: 5 });
    expect(ids(page.results)).toEqual([1, 2, 3, 4, 5]);
    const next = await paginateCursor(query, { pageSize: 5, cursor: page.nextCursor });
    expect(ids(next.results)).toEqual([6, 7, 8, 9, 10]);
    for (const cursor of ['%%%', 'a.b.c', 'eyJrIjoiMSJ9']) {
      await expect(paginateCursor(query, { pageSize: 5, cursor })).rejects.toThrow(
        new NotFound('Invalid cursor'),
      );
    }
    // Signed tokens need the secret; a token of another ordering is refused.
    const signed = await paginateCursor(query, { pageSize: 5, cursorSecret: 's' });
    await expect(paginateCursor(query, { pageSize: 5, cursor: signed.nextCursor })).rejects.toThrow(NotFound);
    await expect(
      paginateCursor(query, { pageSize: 5, cursor: page.nextCursor, ordering: '-id' }),
    ).rejects.toThrow(NotFound);
    for (const pageSize of [0, -1, 1.5]) {
      await expect(paginateCursor(query, { pageSize })).rejects.toThrow(ValidationError);
    }
  });

  it(`[${name}] streamRows: every row once, in order, by keyset batches of batchSize + 1, never OFFSET`, async () => {
    for (const [, ordering] of ORDERINGS) {
      const expected = await httpPage(
        await backend().query('items', items),
        items,
        { pageSize: 100, ordering },
        null,
      );
      for (const batchSize of [1, 4, 23, 1000]) {
        const { query, windows } = recorded(await backend().query('items', items));
        const rows: Row[] = [];
        for await (const row of streamRows(query, { ordering, batchSize }))
          rows.push(normalizeRow(items, row));
        expect(rows, `${String(ordering)} by ${batchSize}`).toEqual(expected.results);
        // One statement per batch: 23 rows need ceil(23 / batchSize) of them; the look-ahead row
        // spares the empty one at the end.
        expect(windows.length, `${String(ordering)} by ${batchSize}`).toBe(
          Math.max(1, Math.ceil(23 / batchSize)),
        );
        for (const window of windows) {
          expect(window.offset).toBe(0);
          expect(window.limit).toBe(batchSize + 1);
        }
        expect(windows[0]!.after).toBeNull();
        expect(windows.slice(1).every((w) => w.after !== null)).toBe(true);
      }
    }
    const empty = recorded(await backend().query('empty', smallDataset(0)));
    const none: Row[] = [];
    for await (const row of streamRows(empty.query, { ordering: 'id' })) none.push(row);
    expect(none).toEqual([]);
    expect(empty.windows.length).toBe(1);
  });

  it(`[${name}] streamRows: leaving the loop stops the fetching`, async () => {
    const { query, windows } = recorded(await backend().query('items', items));
    const seen: number[] = [];
    for await (const row of streamRows(query, { ordering: 'id', batchSize: 4 })) {
      seen.push(Number(row.id));
      if (seen.length === 5) break;
    }
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    expect(windows.length).toBe(2);
    const iterator = streamRows(query, { ordering: 'id', batchSize: 4 })[Symbol.asyncIterator]();
    expect(Number(((await iterator.next()).value as Row).id)).toBe(1);
    await iterator.return?.();
    expect(windows.length).toBe(3);
    expect((await iterator.next()).done).toBe(true);
    expect(windows.length).toBe(3);
  });

  for (const [title, ordering, size] of ORDERINGS) {
    it(`[${name}] connectionFromQuery, ${title}: walks forward and backward with the spec's pageInfo`, async () => {
      const query = await backend().query('items', items);
      const all = (await httpPage(query, items, { pageSize: 100, ordering }, null)).results.map((r) => r.id);
      const { forward, backward } = await connectionWalks(query, size, { ordering });
      const pageCount = Math.ceil(23 / size);
      expect(forward.length).toBe(pageCount);
      expect(forward.flatMap((c) => c.edges.map((e) => normalizeRow(items, e.node).id))).toEqual(all);
      expect(
        backward
          .slice()
          .reverse()
          .flatMap((c) => c.edges.map((e) => normalizeRow(items, e.node).id)),
      ).toEqual(all);
      forward.forEach((c, i) => {
        expect(c.pageInfo.hasNextPage).toBe(i < pageCount - 1);
        // After a cursor, the row it names comes before: known from the bound, as the spec allows.
        expect(c.pageInfo.hasPreviousPage).toBe(i > 0);
        expect(c.pageInfo.startCursor).toBe(c.edges[0]!.cursor);
        expect(c.pageInfo.endCursor).toBe(c.edges.at(-1)!.cursor);
      });
      backward.forEach((c, i) => {
        expect(c.pageInfo.hasPreviousPage).toBe(i < pageCount - 1);
        expect(c.pageInfo.hasNextPage).toBe(i > 0);
        expect(c.edges.length).toBe(i < pageCount - 1 ? size : 23 - size * (pageCount - 1));
      });
      const memory = await connectionWalks(await reference.query('items', items), size, { ordering });
      expect(memory.forward.map(edgeIds)).toEqual(forward.map(edgeIds));
      expect(memory.backward.map(edgeIds)).toEqual(backward.map(edgeIds));
      expect(memory.forward[1]!.edges.map((e) => e.cursor)).toEqual(forward[1]!.edges.map((e) => e.cursor));
    });
  }

  it(`[${name}] connectionFromQuery: edge cursors are CursorPagination tokens, and the other way round`, async () => {
    const query = await backend().query('items', items);
    const options = { pageSize: 5, ordering: '-created', cursorSecret: 'k' };
    const first = await connectionFromQuery(query, { first: 5 }, options);
    const http = await httpPage(query, items, options, first.pageInfo.endCursor);
    const second = await connectionFromQuery(query, { first: 5, after: first.pageInfo.endCursor }, options);
    expect(second.edges.map((e) => normalizeRow(items, e.node))).toEqual(http.results);
    // A link's `next` token is an `after`, its `previous` token a `before`.
    const byLink = await connectionFromQuery(query, { first: 5, after: http.next }, options);
    const third = await connectionFromQuery(query, { first: 5, after: second.pageInfo.endCursor }, options);
    expect(edgeIds(byLink)).toEqual(edgeIds(third));
    const backByLink = await connectionFromQuery(query, { last: 5, before: http.previous }, options);
    expect(edgeIds(backByLink)).toEqual(edgeIds(first));
    expect(backByLink.pageInfo).toMatchObject({ hasPreviousPage: false, hasNextPage: true });
  });

  it(`[${name}] connectionFromQuery: both cursors, both counts, clamping, zero`, async () => {
    const query = await backend().orderedById('items', items);
    const everything = await connectionFromQuery(query, {});
    expect(edgeIds(everything)).toEqual(Array.from({ length: 23 }, (_, i) => i + 1));
    expect(everything.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
    const cursorOf = (id: number) => everything.edges[id - 1]!.cursor;
    const between = { after: cursorOf(3), before: cursorOf(9) };
    const cases: Array<[ConnectionArguments, number[], boolean, boolean]> = [
      [{ ...between }, [4, 5, 6, 7, 8], false, true],
      [{ ...between, first: 2 }, [4, 5], true, true],
      [{ ...between, last: 2 }, [7, 8], true, true],
      [{ ...between, first: 10, last: 10 }, [4, 5, 6, 7, 8], false, false],
      [{ ...between, first: 4, last: 2 }, [6, 7], true, true],
      [{ ...between, first: 2, last: 4 }, [4, 5], true, true],
      // More edges than `last` between the cursors, all within `first`: only the previous page is known.
      [{ ...between, first: 10, last: 3 }, [6, 7, 8], false, true],
      [{ first: 0 }, [], true, false],
      [{ last: 0 }, [], false, true],
      [{ first: 3, before: cursorOf(3) }, [1, 2], false, false],
      [{ last: 3, after: cursorOf(21) }, [22, 23], false, false],
      [{ last: 30, before: cursorOf(3) }, [1, 2], true, false],
    ];
    for (const [args, expected, hasNextPage, hasPreviousPage] of cases) {
      const connection = await connectionFromQuery(query, args);
      const label = JSON.stringify({ ...args, after: undefined, before: undefined });
      expect(edgeIds(connection), label).toEqual(expected);
      expect(connection.pageInfo, label).toMatchObject({ hasNextPage, hasPreviousPage });
    }
    const clamped = await connectionFromQuery(query, { first: 1000 }, { maxPageSize: 7 });
    expect(edgeIds(clamped)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(clamped.pageInfo.hasNextPage).toBe(true);
    expect(edgeIds(await connectionFromQuery(query, {}, { maxPageSize: 4 }))).toEqual([1, 2, 3, 4]);
    expect(edgeIds(await connectionFromQuery(query, { last: 50 }, { maxPageSize: 4 }))).toEqual([
      20, 21, 22, 23,
    ]);
  });

  it(`[${name}] connectionFromQuery: negative counts are 400, bad cursors 404 Invalid cursor`, async () => {
    const query = await backend().query('items', items);
    for (const args of [{ first: -1 }, { last: -3 }, { first: 1.5 }]) {
      const error = await connectionFromQuery(query, args).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).status).toBe(400);
    }
    const order = parseOrdering('-created').map(settleNulls);
    const forged = [
      encodeCursor({ offset: 0, reverse: false, position: ['not a date', 5] }, { order: [...order, idTerm] }),
      encodeCursor(
        { offset: 0, reverse: false, position: [new Date(0), 'x'] },
        { order: [...order, idTerm] },
      ),
      encodeCursor({ offset: 3, reverse: false, position: [new Date(0), 1] }, { order: [...order, idTerm] }),
      '%%%',
      'a.b.c',
      'eyJrIjoiMSJ9',
    ];
    for (const cursor of forged) {
      for (const args of [
        { first: 2, after: cursor },
        { last: 2, before: cursor },
      ]) {
        await expect(connectionFromQuery(query, args, { ordering: '-created' }), cursor).rejects.toThrow(
          new NotFound('Invalid cursor'),
        );
      }
    }
  });
}

const idTerm = { field: 'id', direction: 'desc', nulls: 'last', unique: true } as const;
