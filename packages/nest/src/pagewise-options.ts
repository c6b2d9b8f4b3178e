import type { ApiSettings, BaseVersioning, TrustedOriginOptions, VersioningClass } from '@pagewise/rest';

/**
 * What `PagewiseModule.forRoot()` takes: the bindings' trust rules for the page's request, and the
 * versioning scheme of every route. Frozen once given.
 *
 * @example
 * PagewiseModule.forRoot({
 *   allowedHosts: ['api.example.org'],
 *   trustProxy: true,
 *   versioning: URLPathVersioning.withOptions({ allowedVersions: ['v1', 'v2'] }),
 * })
 */
export interface PagewiseOptions extends TrustedOriginOptions {
  /**
   * The scheme that sets `request.version` on every route (DRF's `DEFAULT_VERSIONING_CLASS`): a
   * versioning class, made once per request as DRF's views do, or an instance shared by all.
   * `@UseVersioning()` overrides it per controller or handler; `null` versions nothing.
   * @default settings.defaultVersioningClass when `settings` is given, else null
   */
  readonly versioning?: VersioningClass | BaseVersioning | null;
  /**
   * Settings a versioning class is made with (its `defaultVersion`, `allowedVersions`,
   * `versionParam`, lifecycle) and whose `defaultVersioningClass` is the default `versioning`.
   * @default ApiSettings.defaults for the schemes, no default versioning
   */
  readonly settings?: ApiSettings;
}

/**
 * The injection token of the module's `PagewiseOptions`, for a provider of your own (an
 * interceptor bound per controller takes them from here).
 *
 * @example
 * constructor(@Inject(PAGEWISE_OPTIONS) private readonly options: PagewiseOptions) {}
 */
export const PAGEWISE_OPTIONS: unique symbol = Symbol('@pagewise/nest.options');

/** `options` frozen (and its `allowedHosts` copied), so a shared interceptor cannot see them change. */
export function freezeOptions(options: PagewiseOptions = {}): PagewiseOptions {
  if (Object.isFrozen(options)) return options;
  return Object.freeze({
    ...options,
    ...(options.allowedHosts !== undefined ? { allowedHosts: Object.freeze([...options.allowedHosts]) } : {}),
  });
}
