import { ConfigurationError, emitWarning, type WarningHook } from '@pagewise/core';
// Types only: a paginator bundles the settings, and needs none of the versioning code.
import type { DefaultVersionFunction, VersionBundle } from './version-bundle.js';
import { parseLifecycleMap, type VersionLifecycleMap } from './version-lifecycle.js';

/** What `new ApiSettings()` takes. Every key is optional; omitted keys take DRF's defaults. */
export interface ApiSettingsOptions {
  /** Pagination class used by list views that do not set their own. @default null (no pagination) */
  defaultPaginationClass?: (new (options?: { settings?: ApiSettings }) => unknown) | null;
  /** Default page size / limit of the built-in styles. @default null */
  pageSize?: number | null;
  /** Versioning class used by views that do not set their own. @default null */
  defaultVersioningClass?: (new (options?: { settings?: ApiSettings }) => unknown) | null;
  /**
   * The version of a request naming none; a function of the request (the version an API key was
   * created on) is resolved per request by the views. @default null (with a bundle, its newest)
   */
  defaultVersion?: string | null | DefaultVersionFunction;
  /** @default null (every version allowed; with a bundle, its versions) */
  allowedVersions?: readonly string[] | null;
  /**
   * Versions as code for the views that do not set their own: each view is written for the
   * newest version and serves every other through the bundle's changes. @default null
   */
  versionBundle?: VersionBundle | null;
  /** @default 'version' */
  versionParam?: string;
  /**
   * Deprecation and sunset of each version, for the schemes that do not set their own (checked
   * here: a bad date is a `ConfigurationError`). @default null (no version deprecated)
   */
  lifecycle?: VersionLifecycleMap | null;
  /** The clock the lifecycle is read against. @default () => new Date() */
  now?: () => Date;
  /** Query parameter `reverse` carries over (DRF's `URL_FORMAT_OVERRIDE`). @default 'format' */
  urlFormatOverride?: string | null;
  /** Query parameter of the ordering filter. @default 'ordering' */
  orderingParam?: string;
  /**
   * Receives warnings: the W001 check and `UnorderedObjectListWarning` from the offset styles.
   * @default emitWarning (`process.emitWarning` where it exists, else `console.warn`)
   */
  onWarning?: WarningHook;
}

/** DRF settings that no longer exist; naming one is a mistake worth failing loudly on. */
const REMOVED = ['paginateBy', 'paginateByParam', 'maxPaginateBy'] as const;

/** Message of the W001 check, word for word DRF's. */
export const W001_MESSAGE =
  'You have specified a default PAGE_SIZE pagination rest_framework setting, without specifying also a ' +
  'DEFAULT_PAGINATION_CLASS.';
const W001_HINT =
  'The default for DEFAULT_PAGINATION_CLASS is None. In previous versions this was PageNumberPagination. ' +
  'If you wish to define PAGE_SIZE globally whilst defining pagination_class on a per-view basis you may ' +
  'silence this check.';

/**
 * Frozen API-wide defaults (DRF's `REST_FRAMEWORK` dict). Pass it to paginators, versioning
 * schemes and views; nothing reads a global.
 *
 * @example
 * const settings = new ApiSettings({ defaultPaginationClass: PageNumberPagination, pageSize: 20 });
 */
export class ApiSettings {
  readonly defaultPaginationClass: ApiSettingsOptions['defaultPaginationClass'];
  readonly pageSize: number | null;
  readonly defaultVersioningClass: ApiSettingsOptions['defaultVersioningClass'];
  readonly defaultVersion: string | null | DefaultVersionFunction;
  readonly versionBundle: VersionBundle | null;
  readonly allowedVersions: readonly string[] | null;
  readonly versionParam: string;
  readonly lifecycle: VersionLifecycleMap | null;
  readonly now: () => Date;
  readonly urlFormatOverride: string | null;
  readonly orderingParam: string;
  readonly onWarning: WarningHook;

  /** The defaults, shared: every field is readonly and frozen. */
  static readonly defaults: ApiSettings = new ApiSettings({}, { check: false });

  constructor(options: ApiSettingsOptions = {}, { check = true }: { check?: boolean } = {}) {
    for (const name of REMOVED) {
      if (name in options) {
        throw new ConfigurationError(
          `The '${name}' setting has been removed. Please refer to ` +
            `'https://www.django-rest-framework.org/api-guide/settings/' for available settings.`,
        );
      }
    }
    this.defaultPaginationClass = options.defaultPaginationClass ?? null;
    this.pageSize = options.pageSize ?? null;
    this.defaultVersioningClass = options.defaultVersioningClass ?? null;
    this.defaultVersion = options.defaultVersion ?? null;
    this.versionBundle = options.versionBundle ?? null;
    this.allowedVersions = options.allowedVersions ? Object.freeze([...options.allowedVersions]) : null;
    this.versionParam = options.versionParam ?? 'version';
    this.lifecycle = parseLifecycleMap(options.lifecycle).lifecycle;
    this.now = options.now ?? (() => new Date());
    this.urlFormatOverride = options.urlFormatOverride === undefined ? 'format' : options.urlFormatOverride;
    this.orderingParam = options.orderingParam ?? 'ordering';
    this.onWarning = options.onWarning ?? emitWarning;
    Object.freeze(this);
    if (check && this.checks().length > 0) {
      this.onWarning(W001_MESSAGE, {
        type: 'PagewiseWarning',
        code: 'pagewise.W001',
        detail: W001_HINT,
      });
    }
  }

  /** DRF's system checks on these settings: `[]` when all is well. */
  checks(): Array<{ id: string; msg: string; hint: string }> {
    if (this.pageSize && !this.defaultPaginationClass) {
      return [{ id: 'pagewise.W001', msg: W001_MESSAGE, hint: W001_HINT }];
    }
    return [];
  }
}

/**
 * Copies the options that are set onto the instance (options left undefined keep the field's
 * default): the own enumerable keys `Object.entries` gives, in its order, without its arrays
 * (views configure twice per request).
 */
export function assignOptions(target: object, options: object): void {
  const source = options as Record<string, unknown>;
  for (const key in source) {
    if (!Object.hasOwn(source, key)) continue;
    const value = source[key];
    if (value !== undefined) (target as Record<string, unknown>)[key] = value;
  }
}
