import { fromArray } from '@pagewise/memory-adapter';
import {
  ApiSettings,
  ConfigurationError,
  CursorPagination,
  LimitOffsetPagination,
  PageNumberPagination,
  W001_MESSAGE,
} from '@pagewise/rest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { get, range } from './helpers.js';

const W001_HINT =
  'The default for DEFAULT_PAGINATION_CLASS is None. In previous versions this was PageNumberPagination. ' +
  'If you wish to define PAGE_SIZE globally whilst defining pagination_class on a per-view basis you may ' +
  'silence this check.';

afterEach(() => {
  vi.restoreAllMocks();
});

function spyWarnings() {
  return vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
}

describe('defaults (section 1.1)', () => {
  it("every default is DRF's", () => {
    for (const settings of [ApiSettings.defaults, new ApiSettings(), new ApiSettings({})]) {
      expect(settings.defaultPaginationClass).toBeNull();
      expect(settings.pageSize).toBeNull();
      expect(settings.defaultVersioningClass).toBeNull();
      expect(settings.defaultVersion).toBeNull();
      expect(settings.allowedVersions).toBeNull();
      expect(settings.versionParam).toBe('version');
      expect(settings.urlFormatOverride).toBe('format');
      expect(settings.orderingParam).toBe('ordering');
    }
  });

  it('settings are frozen, including the allowed versions', () => {
    const source = ['v1', 'v2'];
    const settings = new ApiSettings({ allowedVersions: source });
    source.push('v3');
    expect(settings.allowedVersions).toEqual(['v1', 'v2']);
    expect(Object.isFrozen(settings)).toBe(true);
    expect(Object.isFrozen(settings.allowedVersions)).toBe(true);
    expect(() => {
      (settings as { pageSize: number | null }).pageSize = 3;
    }).toThrow(TypeError);
  });

  it('the built-in styles do not paginate with the default settings', async () => {
    expect(await new PageNumberPagination().paginateQueryset(fromArray(range(0, 5)), get('/'))).toBeNull();
    expect(await new LimitOffsetPagination().paginateQueryset(fromArray(range(0, 5)), get('/'))).toBeNull();
    expect(
      await new CursorPagination({ ordering: 'id' }).paginateQueryset(fromArray([{ id: 1 }]), get('/')),
    ).toBeNull();
  });

  it('the settings page size reaches every built-in style', async () => {
    const settings = new ApiSettings({ pageSize: 2, defaultPaginationClass: PageNumberPagination });
    const rows = range(0, 5).map((id) => ({ id }));
    expect(
      await new PageNumberPagination({ settings }).paginateQueryset(fromArray(rows), get('/')),
    ).toHaveLength(2);
    expect(
      await new LimitOffsetPagination({ settings }).paginateQueryset(fromArray(rows), get('/')),
    ).toHaveLength(2);
    expect(
      await new CursorPagination({ settings, ordering: 'id' }).paginateQueryset(fromArray(rows), get('/')),
    ).toHaveLength(2);
  });
});

describe('W001 (section 1.2)', () => {
  it('defaults: no warning', () => {
    const spy = spyWarnings();
    expect(new ApiSettings().checks()).toEqual([]);
    expect(spy).not.toHaveBeenCalled();
  });

  it("a page size without a default pagination class warns, with DRF's message and hint", () => {
    const spy = spyWarnings();
    const settings = new ApiSettings({ pageSize: 10 });
    expect(spy).toHaveBeenCalledTimes(1);
    const [message, options] = spy.mock.calls[0]! as unknown as [
      string,
      { code: string; detail: string; type: string },
    ];
    expect(message).toBe(
      'You have specified a default PAGE_SIZE pagination rest_framework setting, without specifying also a DEFAULT_PAGINATION_CLASS.',
    );
    expect(message).toBe(W001_MESSAGE);
    expect(options.detail).toBe(W001_HINT);
    expect(options.code).toMatch(/W001$/);
    expect(settings.checks()).toEqual([
      { id: expect.stringMatching(/W001$/), msg: W001_MESSAGE, hint: W001_HINT },
    ]);
  });

  it('a page size with a default pagination class does not warn', () => {
    const spy = spyWarnings();
    const settings = new ApiSettings({ pageSize: 10, defaultPaginationClass: PageNumberPagination });
    expect(spy).not.toHaveBeenCalled();
    expect(settings.checks()).toEqual([]);
  });

  it('a falsy page size does not warn', () => {
    const spy = spyWarnings();
    new ApiSettings({ pageSize: 0 });
    new ApiSettings({ pageSize: null });
    expect(spy).not.toHaveBeenCalled();
  });

  it('the check can be silenced', () => {
    const spy = spyWarnings();
    const settings = new ApiSettings({ pageSize: 10 }, { check: false });
    expect(spy).not.toHaveBeenCalled();
    expect(settings.checks()).toHaveLength(1);
  });

  it('reaches process "warning" listeners', async () => {
    const seen = new Promise<Error & { code?: string }>((resolve) => {
      const listener = (warning: Error & { code?: string }) => {
        if (warning.message === W001_MESSAGE) {
          process.off('warning', listener);
          resolve(warning);
        }
      };
      process.on('warning', listener);
    });
    new ApiSettings({ pageSize: 25 });
    const warning = await seen;
    expect(warning.message).toBe(W001_MESSAGE);
    expect(warning.code).toMatch(/W001$/);
  });
});

describe('removed settings', () => {
  it.each(['paginateBy', 'paginateByParam', 'maxPaginateBy'])('%s throws', (name) => {
    const make = () => new ApiSettings({ [name]: 10 } as never);
    expect(make).toThrow(ConfigurationError);
    let message = '';
    try {
      make();
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(
      `The '${name}' setting has been removed. Please refer to 'https://www.django-rest-framework.org/api-guide/settings/' for available settings.`,
    );
  });

  it('naming a removed setting fails even when its value is undefined', () => {
    expect(() => new ApiSettings({ paginateBy: undefined } as never)).toThrow(ConfigurationError);
  });
});
