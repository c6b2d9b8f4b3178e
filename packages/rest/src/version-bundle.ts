import { ConfigurationError } from '@pagewise/core';
import type { ApiRequest } from './request/api-request.js';

// The OpenAPI room reads bundles, so the two schema types are written here structurally (the
// same as `openapi/schema-types.ts`'s) rather than imported back from it.
/** A JSON Schema object, as `schema` converters get and answer it. */
type JsonSchema = { readonly [key: string]: unknown };
/** The OpenAPI dialect of a document. */
type OpenApiVersion = '3.0' | '3.1';

/**
 * A default version worked out per request, e.g. the version an API key was created on; `null`
 * means the bundle's newest version (no version without a bundle). Used only when the request
 * names no version.
 *
 * @example
 * const pinned: DefaultVersionFunction = async (request) => (await keys.find(request.headers.get('authorization')))?.version ?? null;
 */
export type DefaultVersionFunction = (request: ApiRequest) => string | null | Promise<string | null>;

/**
 * What a converter is told: the request being answered and the version that serves it.
 *
 * @example
 * response: (item, { version }) => ({ ...item, legacy: version < '2025-01-01' })
 */
export interface VersionChangeContext {
  readonly request: ApiRequest;
  /** The version serving the request (`request.version`). */
  readonly version: string;
}

/** What a `schema` converter is told. */
export interface VersionSchemaContext {
  /** The version whose document is being built. */
  readonly version: string;
  /** The dialect of the JSON Schema it gets and must answer. */
  readonly openapi: OpenApiVersion;
}

/** A JSON object request body, as `request` converters take and answer it. */
export type VersionedBody = Readonly<Record<string, unknown>>;

/**
 * What `versionChange` takes. Each converter answers a new value and leaves its input as it was.
 *
 * @example
 * versionChange({
 *   description: 'Articles have `title` instead of `headline`.',
 *   response: ({ headline, ...rest }) => ({ ...rest, title: headline }),
 *   request: ({ title, ...rest }) => (title === undefined ? rest : { ...rest, headline: title }),
 * })
 */
export interface VersionChangeOptions {
  /** One sentence for the changelog: how the version before differs. */
  readonly description: string;
  /** Converts one item (each item of a list, a detail's body) one version back. */
  readonly response?: (item: never, context: VersionChangeContext) => unknown;
  /** Converts a JSON object request body one version forward, before validation. */
  readonly request?: (body: VersionedBody, context: VersionChangeContext) => VersionedBody;
  /** Converts the item's JSON Schema (in the document's dialect) one version back. */
  readonly schema?: (schema: JsonSchema, context: VersionSchemaContext) => JsonSchema;
  /**
   * Converts the whole body of a list (the pagination envelope, or the bare array) one version
   * back, after its items were converted: for a version whose envelope differed (`data` instead
   * of `results`). Item converters never see the envelope; only this hook does.
   */
  readonly envelope?: (body: never, context: VersionChangeContext) => unknown;
  /**
   * Converts the JSON Schema of a list's whole body one version back, as `envelope` converts the
   * body: the document of the version before shows its envelope.
   */
  readonly envelopeSchema?: (schema: JsonSchema, context: VersionSchemaContext) => JsonSchema;
}

const CHANGE = Symbol.for('@pagewise/rest.versionChange');
const BUNDLE = Symbol.for('@pagewise/rest.versionBundle');

/** A version change, made by `versionChange`: frozen, shareable by every request. */
export interface VersionChange extends VersionChangeOptions {
  readonly [CHANGE]: true;
}

const HOOKS = ['response', 'request', 'schema', 'envelope', 'envelopeSchema'] as const;

/**
 * How the version before differs from the version this change belongs to (Stripe's version
 * change modules, Cadwyn's `VersionChange`). Converters answer new values, never mutate their
 * input, and are told `{ request, version }`.
 *
 * @example
 * const splitName = versionChange({
 *   description: 'Authors have one `name` instead of `firstName` and `lastName`.',
 *   response: ({ firstName, lastName, ...rest }: Author) => ({ ...rest, name: `${firstName} ${lastName}` }),
 * });
 */
export function versionChange(options: VersionChangeOptions): VersionChange {
  if (typeof options?.description !== 'string' || options.description.trim() === '') {
    throw new ConfigurationError('versionChange() needs a description (the changelog shows it)');
  }
  for (const hook of HOOKS) {
    if (options[hook] !== undefined && typeof options[hook] !== 'function') {
      throw new ConfigurationError(`versionChange(): ${hook} must be a function`);
    }
  }
  return Object.freeze({ ...options, [CHANGE]: true as const });
}

/**
 * Whether `value` was made by `versionChange` (by brand, so across copies of the package).
 * @example isVersionChange(versionChange({ description: 'x' })) // true
 */
export function isVersionChange(value: unknown): value is VersionChange {
  return typeof value === 'object' && value !== null && CHANGE in value;
}

/**
 * One version of a bundle and the changes it introduced: each makes the version below it.
 *
 * @example
 * { version: '2025-11-15', changes: [renameHeadline] }
 */
export interface BundledVersion {
  readonly version: string;
  /** @default [] */
  readonly changes?: readonly VersionChange[];
}

/**
 * What `versionBundle` takes.
 *
 * @example
 * versionBundle({ versions: [{ version: '2026-01-10', changes: [splitBody] }, { version: '2025-06-01' }] })
 */
export interface VersionBundleOptions {
  /** Newest first. */
  readonly versions: readonly BundledVersion[];
  /**
   * `'date'`: versions are calendar dates (`YYYY-MM-DD`), newest first, and a request may name
   * any date from the oldest on, served by the nearest earlier version. `'listed'`: any names,
   * in the order given, matched exactly. @default 'date'
   */
  readonly ordered?: 'date' | 'listed';
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Whether `value` is a real calendar date written `YYYY-MM-DD` (`2025-02-29` and `2025-13-01`
 * are not).
 * @example isCalendarDate('2024-02-29') // true
 */
export function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * The versions of an API, newest first, with the changes between them, made by
 * `versionBundle`. A view written for the newest version serves every other one through it.
 */
export class VersionBundle {
  readonly [BUNDLE] = true as const;
  /** Newest first. */
  readonly versions: readonly string[];
  readonly ordered: 'date' | 'listed';
  readonly #changes: ReadonlyMap<string, readonly VersionChange[]>;

  /** Prefer `versionBundle(options)`. */
  constructor(options: VersionBundleOptions) {
    const ordered = options?.ordered ?? 'date';
    if (ordered !== 'date' && ordered !== 'listed') {
      throw new ConfigurationError(
        `versionBundle(): ordered must be 'date' or 'listed' (got ${String(ordered)})`,
      );
    }
    const entries = options?.versions;
    if (!Array.isArray(entries) || entries.length === 0) {
      throw new ConfigurationError('versionBundle() needs at least one version');
    }
    const changes = new Map<string, readonly VersionChange[]>();
    entries.forEach((entry: BundledVersion, index) => {
      const version = entry?.version;
      if (typeof version !== 'string' || version === '') {
        throw new ConfigurationError(`versionBundle(): version ${index + 1} has no name`);
      }
      if (changes.has(version)) throw new ConfigurationError(`versionBundle(): ${version} is listed twice`);
      if (ordered === 'date' && !isCalendarDate(version)) {
        throw new ConfigurationError(
          `versionBundle(): ${JSON.stringify(version)} is not a calendar date (YYYY-MM-DD); dated bundles ` +
            "need dates, or pass ordered: 'listed'",
        );
      }
      const previous = entries[index - 1]?.version;
      if (ordered === 'date' && previous !== undefined && !(version < previous)) {
        throw new ConfigurationError(
          `versionBundle(): versions go newest first, but ${version} comes after ${previous}`,
        );
      }
      const own = [...(entry.changes ?? [])];
      for (const change of own) {
        if (!isVersionChange(change))
          throw new ConfigurationError(
            `versionBundle(): ${version} lists a change not made by versionChange()`,
          );
      }
      if (index === entries.length - 1 && own.length > 0) {
        throw new ConfigurationError(
          `versionBundle(): ${version} is the oldest version, so it has no version before it to change into; ` +
            'move its changes to the version that introduced them',
        );
      }
      changes.set(version, Object.freeze(own));
    });
    this.ordered = ordered;
    this.versions = Object.freeze(entries.map((entry) => entry.version));
    this.#changes = changes;
    Object.freeze(this);
  }

  /** The newest version: what views are written for. */
  get newest(): string {
    return this.versions[0]!;
  }

  /** The oldest version. */
  get oldest(): string {
    return this.versions[this.versions.length - 1]!;
  }

  /**
   * The changes a version introduced, in listed order.
   * @example bundle.changesOf('2026-01-10').map((change) => change.description)
   */
  changesOf(version: string): readonly VersionChange[] {
    return this.#changes.get(version) ?? [];
  }

  /**
   * The version serving a requested one: itself when listed; under `ordered: 'date'`, the
   * nearest earlier version for a calendar date between two (the newest for a later date);
   * `null` for a date before the oldest, a non-date, or an unlisted name.
   *
   * @example
   * versionBundle({ versions: [{ version: '2026-01-10' }, { version: '2025-11-15' }] }).resolve('2025-12-25') // '2025-11-15'
   */
  resolve(requested: string | null): string | null {
    if (requested === null) return null;
    if (this.#changes.has(requested)) return requested;
    if (this.ordered !== 'date' || !isCalendarDate(requested)) return null;
    return this.versions.find((version) => version <= requested) ?? null;
  }

  /** The changes between the newest version and `version`, newest first (responses run them in this order). */
  #chain(version: string): VersionChange[] {
    const index = this.versions.indexOf(version);
    if (index < 0) throw new ConfigurationError(`The version bundle has no version ${version}`);
    return this.versions.slice(0, index).flatMap((newer) => this.changesOf(newer));
  }

  /**
   * Whether serving `version` runs any change with this hook.
   * @example bundle.converts('2025-06-01', 'envelope') // true when an older envelope differs
   */
  converts(version: string, hook: (typeof HOOKS)[number]): boolean {
    return this.#chain(version).some((change) => change[hook] !== undefined);
  }

  /**
   * One item written for the newest version, as `context.version` shows it: every change from
   * the newest down, each version's in listed order.
   */
  convertItem(item: unknown, context: VersionChangeContext): unknown {
    let value = item;
    for (const change of this.#chain(context.version))
      if (change.response) value = change.response(value as never, context);
    return value;
  }

  /** A list's whole body (envelope or bare array), its items already converted, through the `envelope` hooks. */
  convertEnvelope(body: unknown, context: VersionChangeContext): unknown {
    let value = body;
    for (const change of this.#chain(context.version))
      if (change.envelope) value = change.envelope(value as never, context);
    return value;
  }

  /**
   * A JSON object request body sent under `context.version`, as the newest version reads it:
   * the changes from that version up, each version's in reverse listed order.
   */
  convertRequest(body: VersionedBody, context: VersionChangeContext): VersionedBody {
    let value = body;
    for (const change of this.#chain(context.version).reverse()) {
      if (!change.request) continue;
      value = change.request(value, context);
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw new ConfigurationError(
          `The version change "${change.description}" must answer a request body that is an object`,
        );
      }
    }
    return value;
  }

  /** The newest version's item JSON Schema as `context.version` shows it. */
  convertSchema(schema: JsonSchema, context: VersionSchemaContext): JsonSchema {
    let value = schema;
    for (const change of this.#chain(context.version))
      if (change.schema) value = change.schema(value, context);
    return value;
  }

  /** The newest version's list body schema (the envelope) as `context.version` shows it. */
  convertEnvelopeSchema(schema: JsonSchema, context: VersionSchemaContext): JsonSchema {
    let value = schema;
    for (const change of this.#chain(context.version))
      if (change.envelopeSchema) value = change.envelopeSchema(value, context);
    return value;
  }
}

/**
 * The versions of an API, newest first, each with the changes that make the version below it.
 * Refused with a `ConfigurationError`: no version, a version twice, a change on the oldest
 * version, and under `ordered: 'date'` (the default) a version that is not a calendar date or
 * dates out of order.
 *
 * @example
 * const versions = versionBundle({
 *   versions: [
 *     { version: '2026-01-10', changes: [splitBody] },
 *     { version: '2025-11-15', changes: [renameHeadline] },
 *     { version: '2025-06-01' },
 *   ],
 * });
 */
export function versionBundle(options: VersionBundleOptions): VersionBundle {
  return new VersionBundle(options);
}

/**
 * Whether `value` is a `VersionBundle` (by brand, so across copies of the package).
 * @example isVersionBundle(versionBundle({ versions: [{ version: '2025-01-01' }] })) // true
 */
export function isVersionBundle(value: unknown): value is VersionBundle {
  return typeof value === 'object' && value !== null && BUNDLE in value;
}

/**
 * A Markdown changelog of a bundle: a `## <version>` section per version that introduced
 * changes, newest first, each change's description as a `- ` item.
 *
 * @example
 * versionChangelog(versions)
 * // '## 2026-01-10\n\n- Articles have one `body` instead of `summary` and `text`.\n'
 */
export function versionChangelog(bundle: VersionBundle): string {
  const sections = bundle.versions
    .filter((version) => bundle.changesOf(version).length > 0)
    .map(
      (version) =>
        `## ${version}\n\n${bundle
          .changesOf(version)
          .map((change) => `- ${change.description.trim().replace(/\s*\n\s*/g, ' ')}`)
          .join('\n')}\n`,
    );
  return sections.join('\n');
}
