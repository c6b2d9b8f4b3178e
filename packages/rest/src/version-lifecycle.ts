import { ApiError, ConfigurationError } from '@pagewise/core';

// Lives at the root of src/ (like settings.ts, which validates it too): versioning/ imports
// settings.ts, so settings.ts may not import versioning/.

/**
 * Where one version stands in its life. Dates are ISO 8601: a date (`2026-06-01`, midnight UTC)
 * or a date-time with its offset (`2026-06-01T12:00:00Z`, `...+02:00`).
 *
 * @example
 * { deprecated: '2026-06-01', sunset: '2027-01-01', link: 'https://example.org/deprecations/v1' }
 */
export interface VersionLifecycle {
  /**
   * The version is (or will be, at a future date) deprecated: its responses carry the
   * `Deprecation` header (RFC 9745). `true`: deprecated, no date announced.
   */
  readonly deprecated?: string | true;
  /**
   * From this instant on the version answers `410 Gone`; until then its responses carry the
   * `Sunset` header (RFC 8594). Not before `deprecated`.
   */
  readonly sunset?: string;
  /**
   * A page about the deprecation and the sunset, sent as `Link` with `rel="deprecation"` and/or
   * `rel="sunset"`. A URI reference (RFC 3986 characters only; relative ones are resolved by the
   * client against the request URL).
   */
  readonly link?: string;
}

/**
 * The lifecycle of each version, by version name.
 *
 * @example
 * const lifecycle: VersionLifecycleMap = { v1: { deprecated: '2026-06-01', sunset: '2027-01-01' } };
 */
export type VersionLifecycleMap = Readonly<Record<string, VersionLifecycle>>;

/** A version's lifecycle with its dates read and its fixed header values built, as schemes use it. */
export interface ParsedLifecycle {
  readonly lifecycle: VersionLifecycle;
  /** Epoch milliseconds; `true` for a deprecation without a date; `null` when not deprecated. */
  readonly deprecatedAt: number | true | null;
  readonly sunsetAt: number | null;
  /** `Deprecation` for a dated deprecation (`@<unix seconds>`), else `null`. */
  readonly deprecationHeader: string | null;
  /** `Sunset` (an HTTP-date), `null` without a sunset. */
  readonly sunsetHeader: string | null;
  /** The `Link` values (`rel="deprecation"`, `rel="sunset"`), `null` without a link. */
  readonly linkHeader: string | null;
}

/**
 * Where a checked map keeps what was read from it. Views make a scheme per request: a map that
 * comes from `ApiSettings` or a `withOptions` preset is read once, not on every request. The
 * symbol is private to this module and the map frozen, so no one else can plant a reading.
 */
const PARSED: unique symbol = Symbol('pagewise.version-lifecycle.parsed');
type CheckedMap = VersionLifecycleMap & { readonly [PARSED]?: ReadonlyMap<string, ParsedLifecycle> };

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
/** The characters RFC 3986 allows in a URI reference (no spaces, quotes, `<`, `>`). */
const URI_REFERENCE = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/;

function validDay(year: string, month: string, day: string): boolean {
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return (
    date.getUTCFullYear() === Number(year) &&
    date.getUTCMonth() === Number(month) - 1 &&
    date.getUTCDate() === Number(day)
  );
}

/** Epoch milliseconds of an ISO date or offset date-time, `null` when it is not one. */
function parseInstant(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const date = ISO_DATE.exec(value);
  if (date) return validDay(date[1]!, date[2]!, date[3]!) ? Date.parse(value) : null;
  const dateTime = ISO_DATE_TIME.exec(value);
  if (!dateTime || !validDay(dateTime[1]!, dateTime[2]!, dateTime[3]!)) return null;
  if (Number(dateTime[4]) > 23 || Number(dateTime[5]) > 59 || Number(dateTime[6] ?? 0) > 59) return null;
  const offset = dateTime[7]!;
  if (offset !== 'Z' && (Number(offset.slice(1, 3)) > 23 || Number(offset.slice(4)) > 59)) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

function parseEntry(version: string, entry: VersionLifecycle): ParsedLifecycle {
  const where = `lifecycle of version "${version}"`;
  if (typeof entry !== 'object' || entry === null) {
    throw new ConfigurationError(`The ${where} must be an object`);
  }
  let deprecatedAt: number | true | null = null;
  if (entry.deprecated === true) deprecatedAt = true;
  else if (entry.deprecated !== undefined) {
    deprecatedAt = parseInstant(entry.deprecated);
    if (deprecatedAt === null) {
      throw new ConfigurationError(
        `The ${where}: deprecated must be true or an ISO date or date-time with offset ` +
          `(2026-06-01, 2026-06-01T00:00:00Z), got ${JSON.stringify(entry.deprecated)}`,
      );
    }
  }
  let sunsetAt: number | null = null;
  if (entry.sunset !== undefined) {
    sunsetAt = parseInstant(entry.sunset);
    if (sunsetAt === null) {
      throw new ConfigurationError(
        `The ${where}: sunset must be an ISO date or date-time with offset ` +
          `(2027-01-01, 2027-01-01T00:00:00Z), got ${JSON.stringify(entry.sunset)}`,
      );
    }
  }
  if (typeof deprecatedAt === 'number' && sunsetAt !== null && sunsetAt < deprecatedAt) {
    throw new ConfigurationError(
      `The ${where}: sunset ${entry.sunset} is before the deprecation ${String(entry.deprecated)} ` +
        '(RFC 9745 section 3: a resource is deprecated no later than its sunset)',
    );
  }
  if (entry.link !== undefined && (typeof entry.link !== 'string' || !URI_REFERENCE.test(entry.link))) {
    throw new ConfigurationError(
      `The ${where}: link must be a URI reference (RFC 3986 characters, percent-encode others), ` +
        `got ${JSON.stringify(entry.link)}`,
    );
  }
  const copy: VersionLifecycle = Object.freeze({
    ...(entry.deprecated !== undefined ? { deprecated: entry.deprecated } : {}),
    ...(entry.sunset !== undefined ? { sunset: entry.sunset } : {}),
    ...(entry.link !== undefined ? { link: entry.link } : {}),
  });
  const link = entry.link ?? null;
  const links =
    link === null
      ? []
      : [
          ...(deprecatedAt !== null ? [`<${link}>; rel="deprecation"`] : []),
          ...(sunsetAt !== null ? [`<${link}>; rel="sunset"`] : []),
        ];
  return Object.freeze({
    lifecycle: copy,
    deprecatedAt,
    sunsetAt,
    deprecationHeader: typeof deprecatedAt === 'number' ? `@${Math.floor(deprecatedAt / 1000)}` : null,
    sunsetHeader: sunsetAt === null ? null : new Date(sunsetAt).toUTCString(),
    linkHeader: links.length > 0 ? links.join(', ') : null,
  });
}

const NOTHING: ReadonlyMap<string, ParsedLifecycle> = new Map();

/**
 * Checks a lifecycle map and returns its frozen copy (a null-prototype object, so `toString`
 * is not a version) with each version's dates read. Throws `ConfigurationError` for a date
 * that is not ISO 8601, a date-time without offset, a sunset before the deprecation or a link
 * that is not a URI reference.
 *
 * @example
 * parseLifecycleMap({ v1: { deprecated: '2026-06-01' } }).parsed.get('v1')?.deprecatedAt // 1780272000000
 */
export function parseLifecycleMap(map: VersionLifecycleMap | null | undefined): {
  readonly lifecycle: VersionLifecycleMap | null;
  readonly parsed: ReadonlyMap<string, ParsedLifecycle>;
} {
  if (map === null || map === undefined) return { lifecycle: null, parsed: NOTHING };
  const checked = (map as CheckedMap)[PARSED];
  if (checked !== undefined && Object.isFrozen(map)) return { lifecycle: map, parsed: checked };
  const parsed = new Map<string, ParsedLifecycle>();
  const lifecycle: Record<string, VersionLifecycle> = Object.create(null);
  for (const [version, entry] of Object.entries(map)) {
    const one = parseEntry(version, entry);
    parsed.set(version, one);
    lifecycle[version] = one.lifecycle;
  }
  Object.defineProperty(lifecycle, PARSED, { value: parsed, enumerable: false });
  return { lifecycle: Object.freeze(lifecycle), parsed };
}

/**
 * 410. A version answers it from its sunset on (the scheme's `lifecycle`).
 * @example throw new Gone('API version "v1" was retired on 2027-01-01.');
 */
export class Gone extends ApiError {
  constructor(detail = 'Gone.') {
    super(detail, { status: 410, code: 'gone' });
  }
}
