import { fromArray } from '@pagewise/memory-adapter';
import {
  ApiRequest,
  ApiSettings,
  emitWarning,
  LimitOffsetPagination,
  ListView,
  PageNumberPagination,
  Paginator,
  UnorderedObjectListWarning,
  W001_MESSAGE,
} from '@pagewise/rest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { wrapQuery } from '../drf/helpers.js';

// Warnings go through a hook: Node's process.emitWarning by default where the runtime has one,
// console.warn where it has none (a Worker without nodejs_compat), or whatever the settings name.

const request = () => new ApiRequest({ url: 'http://testserver/' });
const unordered = () => wrapQuery(fromArray([1, 2, 3, 4, 5, 6, 7]), { ordered: false });

/** Runs `body` as on a runtime without a `process` global, then puts Node's back. */
function withoutProcess(body: () => void): void {
  const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'process')!;
  Object.defineProperty(globalThis, 'process', { value: undefined, configurable: true, writable: true });
  try {
    body();
  } finally {
    Object.defineProperty(globalThis, 'process', descriptor);
  }
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('warning hook', () => {
  it('settings.onWarning receives the unordered warning of both offset styles, process.emitWarning nothing', async () => {
    const emitted = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const seen: unknown[] = [];
    // A hook is told each distinct warning once (issue 36): one settings object per style.
    const settings = () => new ApiSettings({ onWarning: (warning) => seen.push(warning) });
    await new PageNumberPagination({ pageSize: 3, settings: settings() }).paginateQueryset(
      unordered(),
      request(),
    );
    await new LimitOffsetPagination({ defaultLimit: 3, settings: settings() }).paginateQueryset(
      unordered(),
      request(),
    );
    expect(seen).toHaveLength(2);
    for (const warning of seen) {
      expect(warning).toBeInstanceOf(UnorderedObjectListWarning);
      expect((warning as Error).message).toMatch(/^Pagination may yield inconsistent results/);
    }
    expect(emitted).not.toHaveBeenCalled();
  });

  it('a request after the first is not warned again: each distinct warning once per hook', async () => {
    const seen: unknown[] = [];
    const settings = new ApiSettings({ onWarning: (warning) => seen.push(warning) });
    const pagination = new PageNumberPagination({ pageSize: 3, settings });
    for (let i = 0; i < 5; i += 1) await pagination.paginateQueryset(unordered(), request());
    expect(seen).toEqual([expect.any(UnorderedObjectListWarning)]);
    expect((seen[0] as Error).message).toContain('.orderBy(');
  });

  it('a view (a paginator per request) warns of its unordered query once, not on every request', async () => {
    const seen: unknown[] = [];
    const settings = new ApiSettings({ onWarning: (warning) => seen.push(warning) });
    class Numbered extends PageNumberPagination {
      override pageSize = 3;
    }
    const view = ListView.asView({ queryset: unordered(), paginationClass: Numbered, settings });
    for (let i = 0; i < 4; i += 1) await view(new ApiRequest({ url: 'http://localhost/?page=2' }));
    expect(seen.filter((w) => w instanceof UnorderedObjectListWarning)).toHaveLength(1);
  });

  it('the host paginator takes its own hook', () => {
    const seen: unknown[] = [];
    new Paginator(unordered(), 3, { onWarning: (warning) => seen.push(warning) });
    expect(seen).toEqual([expect.any(UnorderedObjectListWarning)]);
  });

  it("W001 goes to the settings' hook with Node's warning options", () => {
    const emitted = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const seen: unknown[][] = [];
    new ApiSettings({ pageSize: 10, onWarning: (...args) => seen.push(args) });
    expect(seen).toEqual([[W001_MESSAGE, expect.objectContaining({ code: 'pagewise.W001' })]]);
    expect(emitted).not.toHaveBeenCalled();
  });

  it('by default the warning is process.emitWarning, looked up when warning', async () => {
    const emitted = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    await new PageNumberPagination({ pageSize: 3 }).paginateQueryset(unordered(), request());
    expect(emitted).toHaveBeenCalledTimes(1);
    expect(emitted.mock.calls[0]![0]).toBeInstanceOf(UnorderedObjectListWarning);
  });

  it('without a process global the default falls back to console.warn instead of throwing', () => {
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    withoutProcess(() => {
      expect(globalThis.process).toBeUndefined();
      new Paginator(unordered(), 3);
      emitWarning(W001_MESSAGE, { type: 'PagewiseWarning', code: 'pagewise.W001' });
    });
    expect(warned.mock.calls).toEqual([
      [expect.stringMatching(/^UnorderedObjectListWarning: Pagination may yield inconsistent results/)],
      [`PagewiseWarning: ${W001_MESSAGE}`],
    ]);
  });
});
