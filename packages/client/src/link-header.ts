/** One link of an RFC 8288 `Link` header. */
export interface LinkValue {
  /** The target as written between `<` and `>`; may be relative to the answer's URL. */
  readonly target: string;
  /** Relation types of `rel`, lower-cased: `rel="next last"` gives `['next', 'last']`. */
  readonly rel: readonly string[];
  /** Parameters by lower-cased name, values unquoted; the first occurrence of a name wins (RFC 8288 §3). */
  readonly params: Readonly<Record<string, string>>;
}

// Character codes the scanner compares against (charCodeAt avoids a string per character).
const TAB = 9;
const LINE_FEED = 10;
const CARRIAGE_RETURN = 13;
const SPACE = 32;
const QUOTE = 34;
const COMMA = 44;
const SEMICOLON = 59;
const LESS_THAN = 60;
const EQUALS = 61;
const BACKSLASH = 92;

function isSpace(code: number): boolean {
  return code === SPACE || code === TAB || code === LINE_FEED || code === CARRIAGE_RETURN;
}

/** Ends an unquoted parameter name or value (lenient: `type=text/html` is accepted though `/` is no tchar). */
function endsBareWord(code: number): boolean {
  return isSpace(code) || code === SEMICOLON || code === COMMA || code === EQUALS;
}

/** Reads the quoted-string opening at `start`; returns its unescaped text and the index after it. */
function readQuoted(header: string, start: number): [string, number] {
  let text = '';
  let chunk = start + 1;
  let i = chunk;
  while (i < header.length) {
    const code = header.charCodeAt(i);
    if (code === QUOTE) return [text + header.slice(chunk, i), i + 1];
    if (code === BACKSLASH && i + 1 < header.length) {
      text += header.slice(chunk, i);
      chunk = i + 1;
      i += 2;
    } else i += 1;
  }
  // Unterminated: the rest of the header is the value, as lenient parsers (browsers) read it.
  return [text + header.slice(chunk), header.length];
}

/** The index of the next comma outside quoted strings, from which parsing resumes after a malformed link. */
function skipToNextLink(header: string, start: number): number {
  let i = start;
  while (i < header.length) {
    const code = header.charCodeAt(i);
    if (code === COMMA) return i;
    i = code === QUOTE ? readQuoted(header, i)[1] : i + 1;
  }
  return i;
}

function skipSpaces(header: string, start: number): number {
  let i = start;
  while (i < header.length && isSpace(header.charCodeAt(i))) i += 1;
  return i;
}

function readBareWord(header: string, start: number): [string, number] {
  let i = start;
  while (i < header.length && !endsBareWord(header.charCodeAt(i))) i += 1;
  return [header.slice(start, i), i];
}

/**
 * Reads the parameters after a link's `>`; returns them and the index where the link ends
 * (a comma or the end), or `null` params when the link is malformed and must be dropped.
 */
function readParams(header: string, start: number): [Record<string, string> | null, number] {
  // A null prototype, so a parameter named `__proto__` or `constructor` is only data.
  const params = Object.create(null) as Record<string, string>;
  let i = start;
  for (;;) {
    i = skipSpaces(header, i);
    if (i >= header.length || header.charCodeAt(i) === COMMA) return [params, i];
    if (header.charCodeAt(i) !== SEMICOLON) return [null, i];
    i = skipSpaces(header, i + 1);
    // A trailing or doubled `;` carries no parameter.
    if (i >= header.length || header.charCodeAt(i) === COMMA) return [params, i];
    if (header.charCodeAt(i) === SEMICOLON) continue;
    const [rawName, afterName] = readBareWord(header, i);
    if (rawName === '') return [null, afterName];
    i = skipSpaces(header, afterName);
    let value = '';
    if (i < header.length && header.charCodeAt(i) === EQUALS) {
      i = skipSpaces(header, i + 1);
      [value, i] =
        i < header.length && header.charCodeAt(i) === QUOTE ? readQuoted(header, i) : readBareWord(header, i);
    }
    const name = rawName.toLowerCase();
    if (!(name in params)) params[name] = value;
  }
}

/**
 * Parses an RFC 8288 `Link` header in one pass (linear in its length). Commas and semicolons
 * inside `<...>` or quoted strings do not split links; a malformed link is skipped up to the
 * next comma and the others are kept.
 *
 * @example
 * parseLinkHeader('<https://api.example/items?page=2>; rel="next", </items?page=9>; rel=last')
 * // [{ target: 'https://api.example/items?page=2', rel: ['next'], params: { rel: 'next' } },
 * //  { target: '/items?page=9', rel: ['last'], params: { rel: 'last' } }]
 */
export function parseLinkHeader(header: string): LinkValue[] {
  const links: LinkValue[] = [];
  let i = 0;
  while (i < header.length) {
    const code = header.charCodeAt(i);
    if (isSpace(code) || code === COMMA) {
      i += 1;
      continue;
    }
    if (code !== LESS_THAN) {
      i = skipToNextLink(header, i);
      continue;
    }
    const close = header.indexOf('>', i + 1);
    // An unterminated target swallows the rest: no later link can be told apart from it.
    if (close === -1) break;
    const target = header.slice(i + 1, close).trim();
    const [params, end] = readParams(header, close + 1);
    if (params === null) {
      i = skipToNextLink(header, end);
      continue;
    }
    i = end;
    const rel = (params.rel ?? '')
      .toLowerCase()
      .split(/[ \t\r\n]+/)
      .filter((type) => type !== '');
    links.push(Object.freeze({ target, rel: Object.freeze(rel), params: Object.freeze(params) }));
  }
  return links;
}

/**
 * The target of the first link whose relation types include `next`, or `null`.
 *
 * @example
 * nextLinkTarget('<https://api.example/items?page=1>; rel="prev", </items?page=3>; rel="next"') // '/items?page=3'
 */
export function nextLinkTarget(header: string | null): string | null {
  if (header === null) return null;
  return parseLinkHeader(header).find((link) => link.rel.includes('next'))?.target ?? null;
}
