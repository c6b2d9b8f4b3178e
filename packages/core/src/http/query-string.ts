/**
 * Form-style query strings exactly as Python's `urllib.parse` treats them, because DRF's link
 * strings (`replace_query_param`, `remove_query_param`) are built with `parse_qs` + `urlencode`.
 */

const UNRESERVED = /[A-Za-z0-9_.\-~]/;
const utf8 = new TextEncoder();
const lenientUtf8 = new TextDecoder('utf-8', { fatal: false });

/** Decodes `+` and `%XX` like `unquote_plus`: malformed escapes stay literal, bad UTF-8 becomes U+FFFD. */
export function decodeFormComponent(text: string): string {
  if (!text.includes('%') && !text.includes('+')) return text;
  const bytes: number[] = [];
  for (let i = 0; i < text.length; ) {
    const ch = text[i]!;
    if (ch === '+') {
      bytes.push(0x20);
      i += 1;
    } else if (ch === '%' && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(text.slice(i + 1, i + 3), 16));
      i += 3;
    } else {
      const cp = text.codePointAt(i)!;
      const chunk = String.fromCodePoint(cp);
      for (const b of utf8.encode(chunk)) bytes.push(b);
      i += chunk.length;
    }
  }
  return lenientUtf8.decode(new Uint8Array(bytes));
}

/** Encodes like `quote_plus`: only `A-Z a-z 0-9 _ . - ~` stay, space becomes `+`. */
export function encodeFormComponent(text: string): string {
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

/** Compares by Unicode code point, as Python sorts strings. */
export function compareCodePoints(a: string, b: string): number {
  const left = Array.from(a);
  const right = Array.from(b);
  const n = Math.min(left.length, right.length);
  for (let i = 0; i < n; i += 1) {
    const d = left[i]!.codePointAt(0)! - right[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return left.length - right.length;
}

function rewriteQuery(url: string | URL, edit: (params: Map<string, string[]>) => void): string {
  const target = new URL(url);
  const params = new Map<string, string[]>();
  for (const [key, value] of parseQueryString(target.search.slice(1))) {
    const values = params.get(key);
    if (values) values.push(value);
    else params.set(key, [value]);
  }
  edit(params);
  const encoded = [...params.entries()]
    .sort(([a], [b]) => compareCodePoints(a, b))
    .flatMap(([key, values]) => values.map((v) => `${encodeFormComponent(key)}=${encodeFormComponent(v)}`))
    .join('&');
  target.search = encoded;
  return target.href;
}

/**
 * DRF's `replace_query_param`: sets `key` to one value, sorts and form-encodes every parameter.
 *
 * @example
 * replaceQueryParam('http://testserver/?b=2&a=1&page=1&page=2', 'page', 5)
 * // 'http://testserver/?a=1&b=2&page=5'
 */
export function replaceQueryParam(url: string | URL, key: string, value: string | number): string {
  return rewriteQuery(url, (params) => {
    params.set(key, [String(value)]);
  });
}

/**
 * DRF's `remove_query_param`: drops every value of `key`, then sorts and form-encodes the rest.
 *
 * @example
 * removeQueryParam('http://testserver/?page=1&page=2', 'page') // 'http://testserver/'
 */
export function removeQueryParam(url: string | URL, key: string): string {
  return rewriteQuery(url, (params) => {
    params.delete(key);
  });
}
