/**
 * Longest `Link` header a page sends: past it (a very long cursor) the header is left out and the
 * links stay in the body, since proxies refuse long header sections (nginx: 8 KiB by default).
 */
export const MAX_LINK_HEADER_LENGTH = 8 * 1024;

/**
 * The RFC 8288 `Link` header of a page's links, `null` without any (or when it would be too long).
 *
 * @example
 * linkHeader('http://testserver/?page=3', 'http://testserver/')
 * // '<http://testserver/?page=3>; rel="next", <http://testserver/>; rel="prev"'
 */
export function linkHeader(next: string | null, previous: string | null): string | null {
  let value = next === null ? '' : `<${next}>; rel="next"`;
  if (previous !== null) value += `${value === '' ? '' : ', '}<${previous}>; rel="prev"`;
  return value !== '' && value.length <= MAX_LINK_HEADER_LENGTH ? value : null;
}

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** A page's response headers: `{ link }` when it has a next or previous link, else `{}`. */
export function pageHeaders(next: string | null, previous: string | null): Readonly<Record<string, string>> {
  const link = linkHeader(next, previous);
  return link === null ? NO_HEADERS : Object.freeze({ link });
}

/**
 * What every page value holds: its rows (frozen), its links and the headers made of them. Each
 * style's page extends it with its own fields, assigned in order in its constructor, which then
 * freezes the whole value (readonly to everyone else, as the style's interface declares them); the
 * style's `body` is one function on its prototype, not a closure per page.
 */
export abstract class PageValue<Row> {
  declare rows: readonly Row[];
  declare next: string | null;
  declare previous: string | null;
  declare headers: Readonly<Record<string, string>>;

  constructor(rows: readonly Row[], next: string | null, previous: string | null) {
    this.rows = Object.freeze(rows);
    this.next = next;
    this.previous = previous;
    this.headers = pageHeaders(next, previous);
  }
}
