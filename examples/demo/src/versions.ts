import {
  type ApiRequest,
  HeaderVersioning,
  type JsonSchema,
  plainReverse,
  type ReverseOptions,
  versionBundle,
  versionChange,
} from '@pagewise/rest';

// The demo's versions as code (docs/versioning.md#versions-as-code). The views write only the
// newest shape (serializers.ts); each change below converts one version back. The same change
// objects serve two bundles: the path versions /v1/ and /v2/ (named, not dated: a dated bundle
// refuses a name that is not a date) and the dated versions of /dated/, asked with
// `Api-Version: <date>` or pinned by an API key.

type Item = Readonly<Record<string, unknown>>;
type Properties = Readonly<Record<string, JsonSchema>>;

/**
 * `item` with each key of `renames` renamed in place (the key order kept: the old versions'
 * answers are byte for byte what they were). Keys it does not have are left alone, so one change
 * can run over the items of every list.
 */
function renameKeys<T extends Item>(item: T, renames: Readonly<Record<string, string>>): Item {
  if (!Object.keys(renames).some((key) => Object.hasOwn(item, key))) return item;
  return Object.fromEntries(Object.entries(item).map(([key, value]) => [renames[key] ?? key, value]));
}

/** An object JSON Schema with its properties (and `required`) renamed in place, as `renameKeys` renames items. */
function renameProperties(schema: JsonSchema, renames: Readonly<Record<string, string>>): JsonSchema {
  const properties = schema.properties as Properties | undefined;
  if (properties === undefined || !Object.keys(renames).some((key) => Object.hasOwn(properties, key))) {
    return schema;
  }
  const required = schema.required as readonly string[] | undefined;
  return {
    ...schema,
    properties: renameKeys(properties, renames),
    ...(required ? { required: required.map((key) => renames[key] ?? key) } : {}),
  };
}

/** `entries` put in `item` before its key `before` (at the end when it has none), without `drop`. */
function insertBefore(item: Item, before: string, drop: string, entries: Item): Item {
  const out: Record<string, unknown> = {};
  let placed = false;
  for (const [key, value] of Object.entries(item)) {
    if (key === before) {
      Object.assign(out, entries);
      placed = true;
    }
    if (key !== drop) out[key] = value;
  }
  return placed ? out : { ...out, ...entries };
}

const ARTICLE_RENAMES = { headline: 'title', content: 'body', publishedAt: 'published_at' } as const;
const AUTHOR_RENAMES = { displayName: 'name', contact: 'email' } as const;

/** The version before 2026-01-10 (and /v1/) has the author flat: `author_id` and `author_url`. */
export const flattenAuthor = versionChange({
  description: 'Articles have `author_id` and `author_url` instead of the `author` object.',
  response: (item: Item) => {
    const author = item.author as { id: number; url: string } | undefined;
    if (author === undefined) return item;
    return insertBefore(item, 'publishedAt', 'author', { author_id: author.id, author_url: author.url });
  },
  schema: (schema) => {
    const properties = schema.properties as Properties | undefined;
    const author = properties?.author as { properties?: Properties } | undefined;
    if (properties === undefined || author?.properties === undefined) return schema;
    const flat = { author_id: author.properties.id!, author_url: author.properties.url! };
    const required = schema.required as readonly string[] | undefined;
    return {
      ...schema,
      properties: insertBefore(properties, 'publishedAt', 'author', flat),
      ...(required
        ? {
            required: Object.keys(
              insertBefore(
                Object.fromEntries(required.map((key) => [key, 0])),
                'publishedAt',
                'author',
                flat,
              ),
            ),
          }
        : {}),
    };
  },
});

/** The version before 2025-11-15 (and /v1/) has the columns' names. */
export const columnNames = versionChange({
  description:
    'Articles have `title`, `body` and `published_at` instead of `headline`, `content` and `publishedAt`.',
  response: (item: Item) => renameKeys(item, ARTICLE_RENAMES),
  schema: (schema) => renameProperties(schema, ARTICLE_RENAMES),
});

/** Authors too. Their writes name the columns (`name`, `email`) in every version, so only answers change. */
export const authorColumnNames = versionChange({
  description: 'Authors have `name` and `email` instead of `displayName` and `contact`.',
  response: (item: Item) => renameKeys(item, AUTHOR_RENAMES),
  schema: (schema) => renameProperties(schema, AUTHOR_RENAMES),
});

/** The oldest dated version held a list's items in `data` (Stripe's envelope key). */
export const dataEnvelope = versionChange({
  description: 'Lists hold their items in `data` instead of `results`.',
  envelope: (body: unknown) =>
    typeof body === 'object' && body !== null && !Array.isArray(body)
      ? renameKeys(body as Item, { results: 'data' })
      : body,
  envelopeSchema: (schema) => renameProperties(schema, { results: 'data' }),
});

/** `/v1/` and `/v2/`: URL path versions, newest first. */
export const PATH_VERSIONS = versionBundle({
  ordered: 'listed',
  versions: [{ version: 'v2', changes: [flattenAuthor, columnNames, authorColumnNames] }, { version: 'v1' }],
});

/**
 * `/dated/`: the same history with a date per change, and one version older than /v1/ whose
 * lists said `data`. A date between two versions is served by the earlier one.
 */
export const DATED_VERSIONS = versionBundle({
  versions: [
    { version: '2026-01-10', changes: [flattenAuthor] },
    { version: '2025-11-15', changes: [columnNames, authorColumnNames] },
    { version: '2025-06-01', changes: [dataEnvelope] },
    { version: '2025-01-01' },
  ],
});

/** The demo's API keys and the day each was created: a key's requests are pinned to that day. */
export const DEMO_API_KEYS: Readonly<Record<string, string>> = Object.freeze({
  'demo-key-2025-03': '2025-03-14',
  'demo-key-2025-08': '2025-08-20',
  'demo-key-2025-12': '2025-12-02',
});

/** The header the API key comes in. */
export const API_KEY_HEADER = 'X-Api-Key';

/**
 * The version of a request that names none: the day its API key was created (the bundle serves
 * it by the version then current), `null` (the newest) without a known key.
 */
export function pinnedVersion(request: ApiRequest): string | null {
  const key = request.headers.get(API_KEY_HEADER);
  return key !== null && Object.hasOwn(DEMO_API_KEYS, key) ? DEMO_API_KEYS[key]! : null;
}

/**
 * `Api-Version: <date>` over the dated bundle, mounted in the `dated` namespace: links reverse
 * within the request's namespace, and answers vary on the API key too (it picks the version of a
 * request that names none).
 */
export class DatedVersioning extends HeaderVersioning {
  override readonly varyHeaders: readonly string[] = Object.freeze([this.header, API_KEY_HEADER]);

  override reverse(name: string, options: ReverseOptions = {}): string {
    const namespace = options.request?.namespace ?? null;
    return plainReverse(namespace === null || name.includes(':') ? name : `${namespace}:${name}`, options);
  }
}
