// A builder's own LIMIT/OFFSET is the list (issue 12): Django counts and pages `qs[3:8]` as five
// rows, and a "top 5" endpoint must never page through the whole table.
import {
  ApiRequest,
  ConfigurationError,
  CursorPagination,
  LimitOffsetPagination,
  ListView,
  type OrderedQuery,
  PageNumberPagination,
} from '@pagewise/rest';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { smallDataset } from '../support/datasets.js';
import type { ConformanceBackend } from './conformance-suite.js';

type Row = Record<string, unknown>;
const ORIGIN = 'http://testserver/';
const ids = (rows: readonly Row[] | null) => (rows ?? []).map((row) => Number(row.id));

async function pageNumber(query: OrderedQuery<Row>, url: string, pageSize = 2) {
  const pagination = new PageNumberPagination({ pageSize });
  const rows = await pagination.paginateQueryset(query, new ApiRequest({ url }));
  return { rows: ids(rows), body: pagination.getPaginatedResponse(rows ?? []).data as Row };
}

async function limitOffset(query: OrderedQuery<Row>, url: string) {
  const pagination = new LimitOffsetPagination({ defaultLimit: 2 });
  const rows = await pagination.paginateQueryset(query, new ApiRequest({ url }));
  return { rows: ids(rows), body: pagination.getPaginatedResponse(rows ?? []).data as Row };
}

/** Every sliced-builder case, on `backend` (the memory adapter runs them on a sliced array). */
export function slicedBuilderCases(name: string, open: () => Promise<ConformanceBackend>): void {
  let backend: ConformanceBackend;
  const dataset = smallDataset(20);
  /** The dataset's ids in `id` order (its rows are shuffled). */
  const sorted = dataset.rows.map((row) => Number(row.id)).sort((a, b) => a - b);
  const at = (...indexes: number[]) => indexes.map((i) => sorted[i]);
  beforeAll(async () => {
    backend = await open();
  });
  afterAll(async () => {
    await backend?.close();
  });

  it(`[${name}] a sliced builder counts and pages the slice by page number`, async () => {
    const query = await backend.sliced('slice20', dataset, { limit: 5, offset: 3 });
    const first = await pageNumber(query, ORIGIN);
    expect(first.rows).toEqual(at(3, 4));
    expect(first.body).toMatchObject({ count: 5, next: `${ORIGIN}?page=2`, previous: null });
    const last = await pageNumber(query, `${ORIGIN}?page=3`);
    expect(last.rows).toEqual(at(7));
    expect(last.body).toMatchObject({ count: 5, next: null });
    await expect(pageNumber(query, `${ORIGIN}?page=4`)).rejects.toThrow('Invalid page.');
  });

  it(`[${name}] a sliced builder is counted and windowed within the slice by limit/offset`, async () => {
    const query = await backend.sliced('slice20', dataset, { limit: 5 });
    const window = await limitOffset(query, `${ORIGIN}?limit=2&offset=4`);
    expect(window.rows).toEqual(at(4));
    expect(window.body).toMatchObject({ count: 5, next: null });
    expect((await limitOffset(query, `${ORIGIN}?limit=10&offset=1`)).rows).toEqual(at(1, 2, 3, 4));
    expect((await limitOffset(query, `${ORIGIN}?limit=2&offset=5`)).rows).toEqual([]);
    expect((await query.count()).value).toBe(5);
  });

  it(`[${name}] an unpaginated list of a sliced builder is the slice`, async () => {
    const query = await backend.sliced('slice20', dataset, { limit: 5, offset: 17 });
    const view = new ListView<Row>({ queryset: query, paginationClass: null });
    const answer = await view.dispatch(new ApiRequest({ url: ORIGIN }));
    expect((JSON.parse(String(answer.data)) as Row[]).map((row) => Number(row.id))).toEqual(at(17, 18, 19));
  });

  it(`[${name}] cursor pagination over a sliced builder is refused, naming the fix`, async () => {
    if (backend.name === 'memory') return; // an array is sliced before it is paged: nothing to refuse
    const query = await backend.sliced('slice20', dataset, { limit: 5 });
    const pagination = new CursorPagination({ pageSize: 2, ordering: 'id' });
    const attempt = pagination.paginateQueryset(query, new ApiRequest({ url: ORIGIN }));
    await expect(attempt).rejects.toThrow(ConfigurationError);
    await expect(
      new CursorPagination({ pageSize: 2, ordering: 'id' }).paginateQueryset(
        query,
        new ApiRequest({ url: ORIGIN }),
      ),
    ).rejects.toThrow(/remove the builder's \.limit\(\)\/\.offset\(\)/);
  });
}
