import { ConfigurationError } from '@pagewise/core';
import type { SchemaVersioning, VersionLocation } from '../openapi/view-description.js';
import type { ApiRequest, RouteParams } from '../request/api-request.js';
import { plainReverse, type ReverseOptions } from '../routes/reverse.js';
import { ApiSettings } from '../settings.js';
import type { DefaultVersionFunction, VersionBundle } from '../version-bundle.js';
import {
  type ParsedLifecycle,
  parseLifecycleMap,
  type VersionLifecycle,
  type VersionLifecycleMap,
} from '../version-lifecycle.js';

/**
 * What a versioning scheme takes; omitted keys come from `settings`.
 *
 * @example
 * new URLPathVersioning({ allowedVersions: ['v1', 'v2'], defaultVersion: 'v1' })
 */
export interface VersioningOptions {
  /**
   * Version used when the request names none. Always allowed. A function of the request is
   * resolved by the view before the scheme runs (the schemes stay synchronous).
   * @default settings.defaultVersion (null; with a bundle, its newest version)
   */
  defaultVersion?: string | null | DefaultVersionFunction;
  /**
   * Versions a request may ask for; `null` or empty allows any. List `null` to allow "no
   * version" when there is no default. @default settings.allowedVersions (null)
   */
  allowedVersions?: ReadonlyArray<string | null> | null;
  /** Name of the parameter holding the version. @default settings.versionParam ('version') */
  versionParam?: string;
  /**
   * Deprecation and sunset dates per version (RFC 9745, RFC 8594): responses of a deprecated
   * version carry `Deprecation`, `Sunset` and `Link` headers, and from the sunset on the version
   * answers 410. Checked here: a bad date is a `ConfigurationError`.
   * @default settings.lifecycle (null)
   *
   * @example
   * { v1: { deprecated: '2026-06-01', sunset: '2027-01-01', link: 'https://example.org/v1-sunset' } }
   */
  lifecycle?: VersionLifecycleMap | null;
  /** The clock the lifecycle is read against. @default settings.now (the system clock) */
  now?: () => Date;
  /**
   * `detail` of the 410 after a version's sunset; `{version}` and `{sunset}` are replaced.
   * @default 'API version "{version}" was retired on {sunset}.'
   */
  sunsetMessage?: string;
  /**
   * The versions as code: a view written for the newest version serves every version of the
   * bundle. `allowedVersions` must be a subset of it, and default to all of it; a dated bundle
   * serves a date between two versions with the earlier one. @default settings.versionBundle (null)
   */
  versionBundle?: VersionBundle | null;
  /** @default ApiSettings.defaults */
  settings?: ApiSettings;
}

/**
 * A version's lifecycle at one instant: what its responses carry.
 *
 * @example
 * scheme.versionStatus('v1') // { version: 'v1', deprecated: true, gone: false, headers: { deprecation: '@1780272000', ... } }
 */
export interface VersionStatus {
  readonly version: string;
  /** The version's lifecycle as configured. */
  readonly lifecycle: VersionLifecycle;
  /** Whether the deprecation is in effect (a date not in the future, or `true`). */
  readonly deprecated: boolean;
  /** Whether the sunset has come: the version answers 410. */
  readonly gone: boolean;
  /** Response headers (lower-case names): `deprecation`, `sunset`, `link` (to merge). */
  readonly headers: Readonly<{ deprecation?: string; sunset?: string; link?: string }>;
}

/**
 * A versioning class, as views and `ApiSettings.defaultVersioningClass` take it.
 *
 * @example
 * const settings = new ApiSettings({ defaultVersioningClass: AcceptHeaderVersioning });
 */
export type VersioningClass = new (options?: {
  settings?: ApiSettings;
  versionBundle?: VersionBundle | null;
}) => BaseVersioning;

/** What `determineVersion` answers, as the default, for a request that names no version. */
const UNNAMED = '\u0000pagewise.unnamed-version';

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
  /** @default settings.defaultVersion (null; with a bundle, its newest version) */
  defaultVersion: string | null;
  /**
   * The `defaultVersion` function, which the view resolves per request into `defaultVersion`.
   * @default null
   */
  readonly defaultVersionFunction: DefaultVersionFunction | null;
  /** @default settings.versionBundle (null) */
  readonly versionBundle: VersionBundle | null;
  /** The response header naming the version that served a bundled response. @default 'Api-Version' */
  readonly versionResponseHeader: string = 'Api-Version';
  /** @default settings.allowedVersions (null: any) */
  allowedVersions: ReadonlyArray<string | null> | null;
  /** @default settings.versionParam ('version') */
  versionParam: string;
  /** @default ApiSettings.defaults */
  readonly settings: ApiSettings;
  /** Request headers the version is read from, added to `Vary` on every response. @default [] */
  readonly varyHeaders: readonly string[] = [];
  /**
   * The lifecycle of each version, frozen (read it as `scheme.lifecycle?.[version]?.deprecated`).
   * @default settings.lifecycle (null)
   */
  readonly lifecycle: VersionLifecycleMap | null;
  /** @default settings.now (the system clock) */
  readonly now: () => Date;
  /** @default 'API version "{version}" was retired on {sunset}.' */
  sunsetMessage: string;
  readonly #parsedLifecycle: ReadonlyMap<string, ParsedLifecycle>;
  /**
   * Where the version is read, as the OpenAPI document shows it; `null` for a scheme it cannot
   * show (a custom header): its routes are documented without a version parameter.
   * @default null
   */
  readonly schemaLocation: VersionLocation = null;

  constructor(options: VersioningOptions = {}) {
    const settings = options.settings ?? ApiSettings.defaults;
    this.settings = settings;
    const bundle = options.versionBundle !== undefined ? options.versionBundle : settings.versionBundle;
    this.versionBundle = bundle;
    const defaultVersion =
      options.defaultVersion !== undefined ? options.defaultVersion : settings.defaultVersion;
    this.defaultVersionFunction = typeof defaultVersion === 'function' ? defaultVersion : null;
    this.defaultVersion =
      typeof defaultVersion === 'function' || defaultVersion === null
        ? (bundle?.newest ?? null)
        : defaultVersion;
    const allowedVersions =
      options.allowedVersions !== undefined ? options.allowedVersions : settings.allowedVersions;
    this.allowedVersions = allowedVersions;
    if (bundle !== null) {
      if (allowedVersions === null || allowedVersions.length === 0) this.allowedVersions = bundle.versions;
      else {
        const outside = allowedVersions.filter(
          (version) => version === null || !bundle.versions.includes(version),
        );
        if (outside.length > 0) {
          throw new ConfigurationError(
            `allowedVersions must be versions of the bundle (${bundle.versions.join(', ')}); ` +
              `${outside.map((version) => JSON.stringify(version)).join(', ')} is not`,
          );
        }
      }
      if (this.defaultVersion !== null && bundle.resolve(this.defaultVersion) === null) {
        throw new ConfigurationError(
          `defaultVersion ${this.defaultVersion} is not a version of the bundle (${bundle.versions.join(', ')})`,
        );
      }
    }
    this.versionParam = options.versionParam ?? settings.versionParam;
    const { lifecycle, parsed } = parseLifecycleMap(
      options.lifecycle !== undefined ? options.lifecycle : settings.lifecycle,
    );
    this.lifecycle = lifecycle;
    this.#parsedLifecycle = parsed;
    this.now = options.now ?? settings.now;
    this.sunsetMessage = options.sunsetMessage ?? 'API version "{version}" was retired on {sunset}.';
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
    // Views make a scheme per request: a bad lifecycle fails where it is written, and is read once.
    const lifecycle = (preset as VersioningOptions).lifecycle;
    const checked =
      lifecycle === undefined ? preset : { ...preset, lifecycle: parseLifecycleMap(lifecycle).lifecycle };
    return class extends Base {
      constructor(options: VersioningOptions = {}) {
        super({ ...checked, ...options });
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
   * The version this request is served under, as `determineVersion` finds it, with a
   * `defaultVersion` function asked only when the request names no version (its `null` is the
   * default, the bundle's newest). Synchronous unless the function answers a promise; the scheme
   * is left as it was, so an instance shared by concurrent requests may answer them all.
   * Throws what `determineVersion` throws, and a `ConfigurationError` for a default the bundle
   * does not serve.
   *
   * @example
   * new HeaderVersioning({ versionBundle, defaultVersion: (request) => keys.get(request.headers.get('x-api-key')) ?? null })
   *   .requestVersion(request) // the key's version when the request has no Api-Version header
   */
  requestVersion(
    request: ApiRequest,
    params: RouteParams = request.params,
  ): string | null | Promise<string | null> {
    const pick = this.defaultVersionFunction;
    if (pick === null) return this.determineVersion(request, params);
    const fallback = this.defaultVersion;
    this.defaultVersion = UNNAMED;
    let named: string | null;
    try {
      named = this.determineVersion(request, params);
    } finally {
      this.defaultVersion = fallback;
    }
    if (named !== UNNAMED) return named;
    const checked = (picked: string | null): string | null => {
      const version = picked ?? fallback;
      if (version !== null && this.servedVersion(version) === null) {
        throw new ConfigurationError(
          `defaultVersion() answered ${JSON.stringify(version)}, which no version of the bundle serves`,
        );
      }
      return version;
    };
    const picked = pick(request);
    return typeof picked === 'object' && picked !== null
      ? Promise.resolve(picked).then(checked)
      : checked(picked);
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
      versionBundle: this.versionBundle,
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
    if (version !== null && version === this.defaultVersion) return true;
    const bundle = this.versionBundle;
    // A bundle serves a version it resolves (a date between two of its versions), when allowed.
    const served = bundle === null ? version : bundle.resolve(version);
    if (bundle !== null && served === null) return false;
    if (!this.allowedVersions || this.allowedVersions.length === 0) return true;
    return (served !== null && served === this.defaultVersion) || this.allowedVersions.includes(served);
  }

  /**
   * The version that serves a determined one: with a bundle, the version it resolves to (a date
   * between two versions is served by the earlier one); else the version itself.
   *
   * @example
   * new QueryParameterVersioning({ versionBundle }).servedVersion('2025-12-25') // '2025-11-15'
   */
  servedVersion(version: string | null): string | null {
    return this.versionBundle === null ? version : this.versionBundle.resolve(version);
  }

  /**
   * Where `version` stands at `now` (the scheme's clock by default), `null` for a version
   * without lifecycle. `Deprecation` is an RFC 9651 date (`@<unix seconds>`, RFC 9745; for
   * `deprecated: true`, which names no date, the instant of the response), `Sunset` an
   * HTTP-date (RFC 8594), `Link` one value per relation.
   *
   * @example
   * new URLPathVersioning({ lifecycle: { v1: { deprecated: '2026-06-01' } } }).versionStatus('v1')?.headers
   * // { deprecation: '@1780272000' }
   */
  versionStatus(version: string | null, now: Date = this.now()): VersionStatus | null {
    if (version === null) return null;
    const parsed = this.#parsedLifecycle.get(version);
    if (parsed === undefined) return null;
    const at = now.getTime();
    const { deprecatedAt, sunsetAt } = parsed;
    const headers: { deprecation?: string; sunset?: string; link?: string } = {};
    if (deprecatedAt === true) headers.deprecation = `@${Math.floor(at / 1000)}`;
    else if (parsed.deprecationHeader !== null) headers.deprecation = parsed.deprecationHeader;
    if (parsed.sunsetHeader !== null) headers.sunset = parsed.sunsetHeader;
    if (parsed.linkHeader !== null) headers.link = parsed.linkHeader;
    return Object.freeze({
      version,
      lifecycle: parsed.lifecycle,
      deprecated: deprecatedAt === true || (deprecatedAt !== null && deprecatedAt <= at),
      gone: sunsetAt !== null && at >= sunsetAt,
      headers: Object.freeze(headers),
    });
  }

  /**
   * The `detail` of the 410 a version answers after its sunset (`sunsetMessage` filled in).
   *
   * @example
   * scheme.sunsetDetail('v1') // 'API version "v1" was retired on 2027-01-01.'
   */
  sunsetDetail(version: string): string {
    const sunset = this.#parsedLifecycle.get(version)?.lifecycle.sunset ?? '';
    return this.sunsetMessage.replaceAll('{version}', version).replaceAll('{sunset}', sunset);
  }

  /**
   * The sentence the browsable page shows for a version with a lifecycle.
   *
   * @example
   * scheme.versionNotice(status) // 'API version "v1" is deprecated since 2026-06-01 and will be retired on 2027-01-01.'
   */
  versionNotice(status: VersionStatus): string {
    const { deprecated, sunset } = status.lifecycle;
    const name = `API version "${status.version}"`;
    if (status.gone) return `${name} was retired on ${sunset}.`;
    const state =
      deprecated === undefined
        ? `${name} will be retired`
        : deprecated === true
          ? `${name} is deprecated`
          : status.deprecated
            ? `${name} is deprecated since ${deprecated}`
            : `${name} will be deprecated on ${deprecated}`;
    if (sunset === undefined) return `${state}.`;
    return deprecated === undefined ? `${state} on ${sunset}.` : `${state} and will be retired on ${sunset}.`;
  }
}
