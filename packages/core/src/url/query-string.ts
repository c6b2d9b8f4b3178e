import { ConfigurationError } from '../errors.js';

/**
 * Form-style query strings exactly as Python's `urllib.parse` treats them, because DRF's link
 * strings (`replace_query_param`, `remove_query_param`) are built with `parse_qs` + `urlencode`.
 */

const UNRESERVED = /[A-Za-z0-9_.\-~]/;
const utf8 = new TextEncoder();
const lenientUtf8 = new TextDecoder('utf-8', { fatal: false });

/** The value of an ASCII hex digit, or -1 (NaN from a missing character included). */
function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/** Decodes `+` and `%XX` like `unquote_plus`: malformed escapes stay literal, bad UTF-8 becomes U+FFFD. */
export function decodeFormComponent(text: string): string {
  if (!text.includes('%') && !text.includes('+')) return text;
  // One UTF-16 unit is at most 3 UTF-8 bytes (a surrogate pair is 4 for 2), an escape 1 for 3.
  const bytes = new Uint8Array(text.length * 3);
  let length = 0;
  // Literal runs are encoded whole, one `encodeInto` each: a byte-by-byte loop with an encoder
  // call per character took seconds on a 1 MB value.
  let literalFrom = 0;
  const flush = (end: number) => {
    if (end <= literalFrom) return;
    length += utf8.encodeInto(text.slice(literalFrom, end), bytes.subarray(length)).written;
  };
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === 0x2b) {
      flush(i);
      bytes[length++] = 0x20;
      literalFrom = i + 1;
    } else if (code === 0x25) {
      const high = hexValue(text.charCodeAt(i + 1));
      const low = high < 0 ? -1 : hexValue(text.charCodeAt(i + 2));
      if (low < 0) continue;
      flush(i);
      bytes[length++] = high * 16 + low;
      i += 2;
      literalFrom = i + 1;
    }
  }
  flush(text.length);
  return lenientUtf8.decode(bytes.subarray(0, length));
}

const PLAIN = /^[A-Za-z0-9_.\-~]*$/;
const URI_EXTRA = /[!'()*]/g;

/** Encodes like `quote_plus`: only `A-Z a-z 0-9 _ . - ~` stay, space becomes `+`. */
export function encodeFormComponent(text: string): string {
  if (PLAIN.test(text)) return text;
  try {
    // encodeURIComponent also leaves ! ' ( ) * alone and writes space as %20; it throws on lone
    // surrogates, which the loop below encodes as U+FFFD like TextEncoder.
    return encodeURIComponent(text)
      .replace(URI_EXTRA, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`)
      .replace(/%20/g, '+');
  } catch {
    return encodeSlowly(text);
  }
}

function encodeSlowly(text: string): string {
  let out = '';
  for (const chunk of text) {
    if (chunk === ' ') out += '+';
    else if (UNRESERVED.test(chunk)) out += chunk;
    else for (const b of utf8.encode(chunk)) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * Parses a raw query string (without `?`) into ordered pairs, keeping blank values:
 * `a=&flag` gives `[['a', ''], ['flag', '']]`.
 */
export function parseQueryString(query: string): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const piece of query.split('&')) {
    if (piece === '') continue;
    const eq = piece.indexOf('=');
    const key = eq === -1 ? piece : piece.slice(0, eq);
    const value = eq === -1 ? '' : piece.slice(eq + 1);
    pairs.push([decodeFormComponent(key), decodeFormComponent(value)]);
  }
  return pairs;
}

/** Compares by Unicode code point, as Python sorts strings (surrogate pairs above U+E000..U+FFFF). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

function codePointRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}

/** The scheme and authority an absolute URL's text starts with, when it names no user. */
const GIVEN_ORIGIN = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#@]*(?=[/?#]|$)/;

/**
 * `parsed` (the parsed `text`, or a part of it that starts with its origin) with the scheme and
 * host written as `text` wrote them, when they name the same origin: DRF's links come from
 * `urlsplit`, which keeps `http://API.Example.com` and an explicit `:80`, where a parsed URL
 * lower-cases the host and drops a default port. Checked only when `text` does not start with
 * the parsed origin, so the usual URL costs one comparison.
 */
function withGivenOrigin(text: string, target: URL, parsed: string): string {
  const origin = target.origin;
  const after = text.charAt(origin.length);
  if (text.startsWith(origin) && (after === '' || after === '/' || after === '?' || after === '#'))
    return parsed;
  const head = GIVEN_ORIGIN.exec(text)?.[0];
  if (head === undefined || !parsed.startsWith(origin)) return parsed;
  const given = `${target.protocol}//${head.slice(head.indexOf('//') + 2)}`;
  try {
    return new URL(given).origin === origin ? given + parsed.slice(origin.length) : parsed;
  } catch {
    return parsed;
  }
}

/**
 * A URL already taken apart, for a `LinkTemplate` that need not parse it again: the URL without
 * its query and fragment, and the query's decoded pairs in order (what `parseQueryString` gives).
 *
 * @example
 * new LinkTemplate({ base: 'http://testserver/items', query: request.queryParams.entries() })
 */
export interface ParsedLinkUrl {
  readonly base: string;
  readonly query: Iterable<readonly [string, string]>;
}

/**
 * A URL whose query is parsed and sorted once, so that many DRF-style links can be derived from
 * it cheaply (a page's next, previous and numbered links all start from one URL). Each
 * parameter is form-encoded the first time a link holds it.
 *
 * @example
 * const links = new LinkTemplate('http://testserver/?b=2&a=1&page=1');
 * links.with('page', 5);    // 'http://testserver/?a=1&b=2&page=5'
 * links.with('page', null); // 'http://testserver/?a=1&b=2'
 */
export class LinkTemplate {
  readonly #head: string;
  readonly #hash: string;
  /** The keys, sorted, and each key's values in order. */
  readonly #keys: readonly string[];
  readonly #values: ReadonlyArray<readonly string[]>;
  /** Each key with all its values encoded (`k=v1&k=v2`), filled in as links need them. */
  readonly #encoded: Array<string | undefined>;

  constructor(url: string | URL | ParsedLinkUrl) {
    let pairs: Iterable<readonly [string, string]>;
    if (typeof (url as Partial<ParsedLinkUrl>).base !== 'string') {
      const target = new URL(url as string | URL);
      pairs = parseQueryString(target.search.slice(1));
      this.#hash = target.hash;
      target.search = '';
      target.hash = '';
      this.#head = typeof url === 'string' ? withGivenOrigin(url, target, target.href) : target.href;
    } else {
      pairs = (url as ParsedLinkUrl).query;
      this.#hash = '';
      this.#head = (url as ParsedLinkUrl).base;
    }
    const params = new Map<string, string[]>();
    for (const [key, value] of pairs) {
      const values = params.get(key);
      if (values) values.push(value);
      else params.set(key, [value]);
    }
    this.#keys = params.size < 2 ? [...params.keys()] : [...params.keys()].sort(compareCodePoints);
    this.#values = this.#keys.map((key) => params.get(key)!);
    this.#encoded = new Array<string | undefined>(this.#keys.length);
  }

  #encodedAt(index: number): string {
    let encoded = this.#encoded[index];
    if (encoded === undefined) {
      const k = encodeFormComponent(this.#keys[index]!);
      encoded = this.#values[index]!.map((v) => `${k}=${encodeFormComponent(v)}`).join('&');
      this.#encoded[index] = encoded;
    }
    return encoded;
  }

  /** The URL with `key` set to `value` (every earlier value dropped), or removed when `value` is `null`. */
  with(key: string, value: string | number | null): string {
    const mine = value === null ? null : `${encodeFormComponent(key)}=${encodeFormComponent(String(value))}`;
    let placed = mine === null;
    let query = '';
    const keys = this.#keys;
    for (let i = 0; i < keys.length; i += 1) {
      const k = keys[i]!;
      if (k === key) continue;
      if (!placed && compareCodePoints(key, k) < 0) {
        query += query === '' ? mine : `&${mine}`;
        placed = true;
      }
      query += query === '' ? this.#encodedAt(i) : `&${this.#encodedAt(i)}`;
    }
    if (!placed) query += query === '' ? mine : `&${mine}`;
    return query !== '' ? `${this.#head}?${query}${this.#hash}` : `${this.#head}${this.#hash}`;
  }

  /**
   * The URL with `key` set to each of `values` in turn (`null`: the key removed), `null` where a
   * value is `undefined` (no link): a page's next and previous links in one call.
   *
   * @example
   * links.withEach('page', [3, null]) // ['http://testserver/?page=3', 'http://testserver/']
   */
  withEach(key: string, values: ReadonlyArray<string | number | null | undefined>): Array<string | null> {
    const links = new Array<string | null>(values.length);
    for (let i = 0; i < values.length; i += 1) {
      const value = values[i];
      links[i] = value === undefined ? null : this.with(key, value);
    }
    return links;
  }

  /**
   * The URL with each of `values`' keys set to its value, or removed when it is `null`: what
   * `with` does for one key, for several at once (a limit and an offset).
   *
   * @example
   * new LinkTemplate('http://testserver/?offset=5').withValues({ limit: 10, offset: 15 })
   * // 'http://testserver/?limit=10&offset=15'
   */
  withValues(values: Readonly<Record<string, string | number | null>>): string {
    const own = Object.keys(values)
      .filter((key) => values[key] !== null)
      .sort(compareCodePoints)
      .map(
        (key) => [key, `${encodeFormComponent(key)}=${encodeFormComponent(String(values[key]))}`] as const,
      );
    const parts: string[] = [];
    let next = 0;
    const keys = this.#keys;
    for (let i = 0; i < keys.length; i += 1) {
      const k = keys[i]!;
      if (Object.hasOwn(values, k)) continue;
      while (next < own.length && compareCodePoints(own[next]![0], k) < 0) parts.push(own[next++]![1]);
      parts.push(this.#encodedAt(i));
    }
    while (next < own.length) parts.push(own[next++]![1]);
    const query = parts.join('&');
    return query !== '' ? `${this.#head}?${query}${this.#hash}` : `${this.#head}${this.#hash}`;
  }
}

/**
 * DRF's `replace_query_param`: sets `key` to one value, sorts and form-encodes every parameter.
 *
 * @example
 * replaceQueryParam('http://testserver/?b=2&a=1&page=1&page=2', 'page', 5)
 * // 'http://testserver/?a=1&b=2&page=5'
 */
export function replaceQueryParam(url: string | URL, key: string, value: string | number): string {
  return new LinkTemplate(url).with(key, value);
}

/**
 * DRF's `remove_query_param`: drops every value of `key`, then sorts and form-encodes the rest.
 *
 * @example
 * removeQueryParam('http://testserver/?page=1&page=2', 'page') // 'http://testserver/'
 */
export function removeQueryParam(url: string | URL, key: string): string {
  return new LinkTemplate(url).with(key, null);
}

/**
 * Read-only view of a request's query parameters with Django `QueryDict` semantics:
 * `get` answers the last value of a repeated key.
 *
 * @example
 * new QueryParams('page=2&page=3').get('page') // '3'
 */
export class QueryParams {
  readonly #rawQuery: string;
  /** The decoded pairs, parsed on first use: a request whose parameters nobody reads parses none. */
  #parsed: ReadonlyArray<readonly [string, string]> | undefined;

  constructor(rawQuery: string) {
    this.#rawQuery = rawQuery;
  }

  get #pairs(): ReadonlyArray<readonly [string, string]> {
    if (this.#parsed === undefined) {
      const raw = this.#rawQuery;
      this.#parsed = Object.freeze(parseQueryString(raw.startsWith('?') ? raw.slice(1) : raw));
    }
    return this.#parsed;
  }

  /** The last value of `name`, or `null` when it is absent. `?page=` gives `''`. */
  get(name: string): string | null {
    const pairs = this.#pairs;
    for (let i = pairs.length - 1; i >= 0; i -= 1) {
      const [key, value] = pairs[i]!;
      if (key === name) return value;
    }
    return null;
  }

  /** Every value of `name`, in request order. */
  getAll(name: string): string[] {
    return this.#pairs.filter(([key]) => key === name).map(([, value]) => value);
  }

  has(name: string): boolean {
    return this.#pairs.some(([key]) => key === name);
  }

  /** The decoded pairs, in request order. */
  entries(): ReadonlyArray<readonly [string, string]> {
    return this.#pairs;
  }
}

/** A page function's URL taken apart: its query parameters and the template its links are made from. */
export interface RequestUrl {
  /** Each parameter's last value (Django `QueryDict` semantics), read without a call into this module. */
  readonly params: ReadonlyMap<string, string>;
  readonly links: LinkTemplate;
}

/**
 * `url` parsed, or a `ConfigurationError` saying it must be absolute and how a router builds it: a
 * path alone (`'/posts/?page_size=2'`) has no origin for the links to be made from.
 */
function absoluteUrl(url: string): URL {
  try {
    return new URL(url);
  } catch {
    // Explained below.
  }
  const shown = url.length > 200 ? `${JSON.stringify(url.slice(0, 200))}...` : JSON.stringify(url);
  throw new ConfigurationError(
    `The URL of a page must be the request's absolute URL (scheme and host: the links are made from ` +
      `it), got ${shown}. Hono: c.req.url; Express: new URL(req.originalUrl, 'https://api.example.org'); ` +
      `Fastify: new URL(request.url, 'https://api.example.org'); a fetch handler: request.url. A fixed ` +
      "origin, as in the Express and Fastify examples, keeps a client's Host header out of the links.",
  );
}

/**
 * The URL a page function is given, parsed once for both its parameters and its links.
 *
 * @example
 * const { params, links } = requestUrl('http://testserver/items?cursor=abc&cursor=def');
 * params.get('cursor'); // 'def'
 * links.with('cursor', 'ghi'); // 'http://testserver/items?cursor=ghi'
 */
export function requestUrl(url: string | URL): RequestUrl {
  const target = typeof url === 'string' ? absoluteUrl(url) : url;
  const { href, search } = target;
  const pairs = parseQueryString(search.startsWith('?') ? search.slice(1) : search);
  const params = new Map<string, string>();
  for (const [key, value] of pairs) params.set(key, value);
  const base = href.slice(0, href.length - search.length);
  // Without a fragment the link template reuses the parsed pairs instead of parsing them again.
  const links =
    target.hash === ''
      ? new LinkTemplate({
          base: typeof url === 'string' ? withGivenOrigin(url, target, base) : base,
          query: pairs,
        })
      : new LinkTemplate(typeof url === 'string' ? url : target);
  return { params, links };
}
