import { fromArray } from '@pagewise/memory-adapter';
import {
  ApiRequest,
  type ApiResponse,
  ApiSettings,
  CursorPagination,
  LimitOffsetPagination,
  ListView,
  PageNumberPagination,
  PaginationWarning,
} from '@pagewise/rest';
import { afterEach, describe, expect, it, vi } from 'vitest';

// Issue 31: a paginator asked for with no page size anywhere (its options, its fields, the
// settings) lists the whole table, as DRF does; here the user asked for pagination, so Pagewise
// warns once per paginator class, through the hook UnorderedObjectListWarning goes through, and says
// how to set the size.

const rows = Array.from({ length: 1000 }, (_, i) => ({ id: i + 1, created: i }));
const request = (search = '') => new ApiRequest({ url: `http://testserver/items/${search}` });

afterEach(() => vi.restoreAllMocks());

describe('PaginationWarning: pagination asked for with no page size anywhere', () => {
  it('ListView.asView({ paginationClass: CursorPagination }) answers every row and warns once, saying how to set the size', async () => {
    const seen: unknown[] = [];
    const settings = new ApiSettings({ onWarning: (warning) => seen.push(warning) });
    class Feed extends CursorPagination {}
    const view = ListView.asView({
      queryset: fromArray(rows, { uniqueKey: 'id' }),
      paginationClass: Feed,
      settings,
    });
    for (let i = 0; i < 3; i += 1) {
      const response = (await view(request())) as ApiResponse;
      const data = typeof response.data === 'string' ? JSON.parse(response.data) : response.data;
      expect((data as unknown[]).length).toBe(1000);
    }
    expect(seen).toEqual([expect.any(PaginationWarning)]);
    const [warning] = seen as PaginationWarning[];
    expect(warning!.name).toBe('PaginationWarning');
    expect(warning!.message).toMatch(/Feed/);
    expect(warning!.message).toMatch(/pageSize/);
    expect(warning!.message).toMatch(/ApiSettings/);
  });

  it('ApiSettings({ defaultPaginationClass }) without a pageSize warns too, through process.emitWarning by default', async () => {
    const emitted = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    class Numbers extends PageNumberPagination {}
    const settings = new ApiSettings({ defaultPaginationClass: Numbers });
    const view = ListView.asView({ queryset: fromArray(rows, { uniqueKey: 'id' }), settings });
    await view(request());
    await view(request('?page=2'));
    const warnings = emitted.mock.calls
      .map(([warning]) => warning)
      .filter((w) => w instanceof PaginationWarning);
    expect(warnings).toHaveLength(1);
  });

  it('once per class: each class warns once, a configured size or a client-chosen one never warns', async () => {
    const seen: unknown[] = [];
    const settings = new ApiSettings({ onWarning: (warning) => seen.push(warning) });
    class A extends LimitOffsetPagination {}
    class B extends LimitOffsetPagination {}
    for (const Style of [A, A, B, B]) await new Style({ settings }).paginate(fromArray(rows), request());
    expect(seen.filter((w) => w instanceof PaginationWarning)).toHaveLength(2);
    seen.length = 0;
    class Sized extends CursorPagination {
      override pageSize = 20;
    }
    await new Sized({ settings }).paginate(fromArray(rows, { uniqueKey: 'id' }), request());
    await new PageNumberPagination({ pageSize: 5, settings }).paginate(fromArray(rows), request());
    await new PageNumberPagination({
      settings: new ApiSettings({ pageSize: 5, onWarning: (w) => seen.push(w) }),
    }).paginate(fromArray(rows), request());
    expect(seen.filter((w) => w instanceof PaginationWarning)).toEqual([]);
  });
});
