import type { SchemaVersioning, VersionLocation } from '../openapi/view-description.js';
import type { ApiRequest, RouteParams } from '../request/api-request.js';
import { plainReverse, type ReverseOptions } from '../routes/reverse.js';
import { ApiSettings } from '../settings.js';

/**
 * What a versioning scheme takes; omitted keys come from `settings`.
 *
 * @example
 * new URLPathVersioning({ allowedVersions: ['v1', 'v2'], defaultVersion: 'v1' })
 */
export interface VersioningOptions {
  /** Version used when the request names none. Always allowed. @default settings.defaultVersion (null) */
  defaultVersion?: string | null;
  /**
   * Versions a request may ask for; `null` or empty allows any. List `null` to allow "no
   * version" when there is no default. @default settings.allowedVersions (null)
   */
  allowedVersions?: ReadonlyArray<string | null> | null;
  /** Name of the parameter holding the version. @default settings.versionParam ('version') */
  versionParam?: string;
  /** @default ApiSettings.defaults */
  settings?: ApiSettings;
}

/**
 * Where one version stands in its life: deprecated since a date (ISO `YYYY-MM-DD`, or `true`),
 * answered until `sunset`, with a `link` explaining the migration.
 *
 * @example
 * const lifecycle: VersionLifecycle = { v1: { deprecated: '2026-06-01', sunset: '2027-01-01' } };
 */
export type VersionLifecycle = Readonly<
  Record<string, { readonly deprecated?: string | true; readonly sunset?: string; readonly link?: string }>
>;

/**
 * A versioning class, as views and `ApiSettings.defaultVersioningClass` take it.
 *
 * @example
 * const settings = new ApiSettings({ defaultVersioningClass: AcceptHeaderVersioning });
 */
export type VersioningClass = new (options?: { settings?: ApiSettings }) => BaseVersioning;

/**
 * The base of every versioning scheme (DRF's `BaseVersioning`). A custom scheme overrides
 * `determineVersion`, and `reverse` when its URLs carry the version.
 *
 * @example
 * class HeaderVersioning extends BaseVersioning {
 *   override determineVersion(request: ApiRequest): string | null {
 *     return request.headers.get('x-api-version') ?? this.defaultVersion;
 *   }
 * }
 */
export class BaseVersioning {
  /** @default settings.defaultVersion (null) */
  defaultVersion: string | null;
  /** @default settings.allowedVersions (null: any) */
  allowedVersions: ReadonlyArray<string | null> | null;
  /** @default settings.versionParam ('version') */
  versionParam: string;
  /** @default ApiSettings.defaults */
  readonly settings: ApiSettings;
  /** Request headers the version is read from, added to `Vary` on every response. @default [] */
  readonly varyHeaders: readonly string[] = [];
  /** Per-version deprecation and sunset dates; the document marks a deprecated version's operations. */
  declare readonly lifecycle?: VersionLifecycle;
  /**
   * Where the version is read, as the OpenAPI document shows it; `null` for a scheme it cannot
   * show (a custom header): its routes are documented without a version parameter.
   * @default null
   */
  readonly schemaLocation: VersionLocation = null;

  constructor(options: VersioningOptions = {}) {
    const settings = options.settings ?? ApiSettings.defaults;
    this.settings = settings;
    this.defaultVersion =
      options.defaultVersion !== undefined ? options.defaultVersion : settings.defaultVersion;
    this.allowedVersions =
      options.allowedVersions !== undefined ? options.allowedVersions : settings.allowedVersions;
    this.versionParam = options.versionParam ?? settings.versionParam;
  }

  /**
   * A subclass with these options preset (DRF sets them as class attributes), for a view's
   * `versioningClass`.
   *
   * @example
   * versioningClass = URLPathVersioning.withOptions({ allowedVersions: ['v1', 'v2'] });
   */
  static withOptions<T extends new (options?: VersioningOptions) => BaseVersioning>(
    this: T,
    preset: NonNullable<ConstructorParameters<T>[0]>,
  ): T {
    // biome-ignore lint/complexity/noThisInStatic: the preset subclass must extend the class it is called on
    const Base = this as new (options?: VersioningOptions) => BaseVersioning;
    return class extends Base {
      constructor(options: VersioningOptions = {}) {
        super({ ...preset, ...options });
      }
    } as unknown as T;
  }

  /**
   * The version this request asks for; throws `NotFound` (or `NotAcceptable`) for one that is
   * not allowed. `params` are the route's keyword arguments.
   * @default throws: subclasses implement it
   */
  determineVersion(_request: ApiRequest, _params?: RouteParams): string | null {
    throw new Error('determineVersion() must be implemented.');
  }

  /**
   * The URL of a named route for this scheme. Throws `NoReverseMatch` when there is none, so
   * `reverse` can fall back to the unversioned route.
   * @default the plain reverse
   */
  reverse(name: string, options: ReverseOptions = {}): string {
    return plainReverse(name, options);
  }

  /**
   * The scheme as the OpenAPI document needs it, for a route mounted in `namespace`.
   *
   * @example
   * new URLPathVersioning({ allowedVersions: ['v1', 'v2'] }).schemaVersioning(null).versions // ['v1', 'v2']
   */
  schemaVersioning(namespace: string | null): SchemaVersioning {
    const versions = [
      ...new Set([
        ...(this.allowedVersions ?? []).filter((version): version is string => version !== null),
        ...(this.defaultVersion !== null && (this.allowedVersions ?? []).length > 0
          ? [this.defaultVersion]
          : []),
      ]),
    ];
    const routeVersion =
      this.schemaLocation === 'namespace' && namespace !== null
        ? (namespace.split(':').find((part) => this.isAllowedVersion(part)) ?? null)
        : null;
    const lifecycle = this.lifecycle;
    return {
      location: this.schemaLocation,
      param: this.versionParam,
      versions,
      defaultVersion: this.defaultVersion,
      routeVersion,
      deprecated: (version) => Boolean(lifecycle?.[version]?.deprecated),
    };
  }

  /**
   * DRF's `is_allowed_version`: any version when `allowedVersions` is empty; otherwise the
   * default version (when not null) and the listed ones.
   *
   * @example
   * new QueryParameterVersioning({ allowedVersions: ['v1'], defaultVersion: 'v2' }).isAllowedVersion('v2') // true
   */
  isAllowedVersion(version: string | null): boolean {
    if (!this.allowedVersions || this.allowedVersions.length === 0) return true;
    return (version !== null && version === this.defaultVersion) || this.allowedVersions.includes(version);
  }
}
