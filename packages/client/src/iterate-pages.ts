import { PagewiseClientError } from './client-error.js';
import { nextLinkTarget } from './link-header.js';

/**
 * A page as the three Pagewise styles send it: page number (`{ count, next, previous, results }`),
 * limit/offset (the same) and cursor (`{ next, previous, results }`); or a bare array of items
 * (an unpaginated list, or an API that pages through the `Link` header only).
 */
export type PageBody<Item = unknown> = PaginatedBody<Item> | Item[];

/** The object form of a page. Items are typed by the caller, not checked. */
export interface PaginatedBody<Item = unknown> {
  /** Number of items in the whole list (page number and limit/offset styles). */
  readonly count?: number;
  /** Absolute URL of the next page; `null` on the last page. */
  readonly next?: string | null;
  /** Absolute URL of the previous page; `null` on the first page. */
  readonly previous?: string | null;
  readonly results: Item[];
}

/** The part of `fetch` the client uses; the global `fetch` and wrappers of it fit. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** Options of `iteratePages` and `iterateResults`. */
export interface IteratePagesOptions {
  /** Sends every request, e.g. a wrapper adding retries or a test server's fetch. @default globalThis.fetch */
  readonly fetch?: FetchLike | undefined;
  /** Sent with every request. `accept: application/json` is added unless an `accept` is given. @default {} */
  readonly headers?: HeadersInit | undefined;
  /** Aborting stops the walk: the pending request is cancelled and iteration rejects with the signal's reason. */
  readonly signal?: AbortSignal | undefined;
  /**
   * Follow `next` links and redirects to another origin than the first URL's. Off: such a link or
   * redirect rejects with `cross_origin` before anything is sent there. Either way `headers` (the
   * credentials they may hold) only ever go to the first URL's origin: another origin's pages are
   * asked for with the `accept` header alone.
   * @default false
   */
  readonly allowCrossOrigin?: boolean | undefined;
}

/** Where a page was fetched from: `response.url` after redirects, else the URL asked for. */
function pageUrl(response: Response, requested: string): string {
  return response.url === '' ? requested : response.url;
}

/** The URL without its fragment, which never reaches the server, so `?page=2#x` is `?page=2`. */
function withoutFragment(url: URL): string {
  url.hash = '';
  return url.href;
}

function resolveStart(url: string | URL): string {
  // Not `instanceof URL`: a URL from another realm (an iframe, a vm context) is as good.
  if (typeof url !== 'string') return withoutFragment(new URL(url.href));
  // In a browser a path like '/api/items/' is relative to the document, as `fetch` reads it.
  const base = (globalThis as { location?: { href?: string } }).location?.href;
  try {
    return withoutFragment(new URL(url, base));
  } catch {
    throw new TypeError(`iteratePages needs an absolute URL (got ${JSON.stringify(url)})`);
  }
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function isPageBody(value: unknown): value is PageBody {
  if (Array.isArray(value)) return true;
  return (
    typeof value === 'object' && value !== null && Array.isArray((value as { results?: unknown }).results)
  );
}

/**
 * The items of a page: its `results`, or the page itself when it is a bare array.
 *
 * @example
 * for await (const page of iteratePages<Article>(url)) console.log(pageResults(page).length);
 */
export function pageResults<Item>(page: PageBody<Item>): Item[] {
  return Array.isArray(page) ? page : page.results;
}

function detailOf(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const detail = (body as { detail?: unknown }).detail;
  return typeof detail === 'string' ? detail : null;
}

/** Reads one answer: its page, or the error a non-2xx or non-page answer stands for. */
async function readPage(response: Response, url: string): Promise<PageBody> {
  const text = await response.text();
  const parsed = parseJson(text);
  const body = parsed.ok ? parsed.value : text === '' ? undefined : text;
  if (!response.ok) {
    const detail = detailOf(body) ?? (response.statusText || `HTTP ${response.status}`);
    throw new PagewiseClientError({ status: response.status, code: 'http_error', detail, url, body });
  }
  if (!isPageBody(body)) {
    const detail = parsed.ok
      ? 'The answer is neither an array nor an object with a "results" array.'
      : 'The answer is not JSON.';
    throw new PagewiseClientError({ status: response.status, code: 'invalid_body', detail, url, body });
  }
  return body;
}

/**
 * The next page's URL: the body's `next` when the body has that field (`null` ends the walk),
 * else the `Link` header's `rel="next"`; relative targets resolve against the page's URL.
 */
function nextUrl(body: PageBody, response: Response, url: string): string | null {
  let target: string | null;
  if (!Array.isArray(body) && 'next' in body) {
    const next: unknown = body.next;
    if (next !== null && typeof next !== 'string') {
      throw new PagewiseClientError({
        status: response.status,
        code: 'invalid_body',
        detail: `"next" must be a URL or null (got ${JSON.stringify(next).slice(0, 100)}).`,
        url,
        body,
      });
    }
    target = next;
  } else target = nextLinkTarget(response.headers.get('link'));
  if (target === null) return null;
  try {
    return withoutFragment(new URL(target, url));
  } catch {
    throw new PagewiseClientError({
      status: response.status,
      code: 'invalid_link',
      detail: `The next link ${JSON.stringify(target)} is not a URL.`,
      url,
      body,
    });
  }
}

/** The two ways a page is asked for: with the caller's headers (its own origin), and without. */
interface RequestInits {
  readonly own: RequestInit;
  /** For another origin (with `allowCrossOrigin`): the `accept` header only, no credentials. */
  readonly foreign: RequestInit;
}

function requestInits(options: IteratePagesOptions): RequestInits {
  const headers = new Headers(options.headers);
  if (!headers.has('accept')) headers.set('accept', 'application/json');
  const bare = new Headers({ accept: headers.get('accept')! });
  // Redirects are followed here, origin by origin, never by fetch: it would send `headers` along.
  const base: RequestInit =
    options.signal === undefined ? { redirect: 'manual' } : { redirect: 'manual', signal: options.signal };
  return { own: { ...base, headers }, foreign: { ...base, headers: bare } };
}

/** Redirects followed for one page before the walk gives up, as fetch's own limit. */
const MAX_REDIRECTS = 20;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

function crossOrigin(status: number, from: string, to: string, origin: string): PagewiseClientError {
  return new PagewiseClientError({
    status,
    code: 'cross_origin',
    detail: `The page at ${from} redirects to ${to}, which leaves ${origin}; pass allowCrossOrigin: true to follow it.`,
    url: to,
  });
}

/**
 * Fetches the page at `url`, following redirects one by one: each target's origin is checked
 * before anything is sent to it, and only the walk's own origin gets the caller's headers. A
 * `fetch` that follows redirects itself is checked by where its answer came from
 * (`response.url`). Answers the response and the URL it is the page of.
 */
async function fetchPage(
  send: FetchLike,
  url: string,
  inits: RequestInits,
  origin: string,
  options: IteratePagesOptions,
): Promise<{ response: Response; here: string }> {
  let target = url;
  for (let hops = 0; ; hops += 1) {
    const own = new URL(target).origin === origin;
    const response = await send(target, own ? inits.own : inits.foreign);
    const location = REDIRECT_STATUSES.has(response.status) ? response.headers.get('location') : null;
    if (response.type === 'opaqueredirect' || (location !== null && hops >= MAX_REDIRECTS)) {
      // A browser hides a manual redirect's target: it cannot be checked, so it is not followed.
      await response.body?.cancel();
      throw new PagewiseClientError({
        status: response.status,
        code: 'http_error',
        detail:
          response.type === 'opaqueredirect'
            ? `The page at ${target} redirects to a URL this runtime does not show; start from the URL it redirects to.`
            : `The page at ${url} redirects more than ${MAX_REDIRECTS} times.`,
        url: target,
      });
    }
    if (location === null) {
      const here = pageUrl(response, target);
      if (options.allowCrossOrigin !== true && new URL(here).origin !== origin) {
        await response.body?.cancel();
        throw crossOrigin(response.status, target, here, origin);
      }
      return { response, here };
    }
    await response.body?.cancel();
    let next: string;
    try {
      next = withoutFragment(new URL(location, target));
    } catch {
      throw new PagewiseClientError({
        status: response.status,
        code: 'invalid_link',
        detail: `The redirect to ${JSON.stringify(location)} is not a URL.`,
        url: target,
      });
    }
    if (options.allowCrossOrigin !== true && new URL(next).origin !== origin) {
      throw crossOrigin(response.status, target, next, origin);
    }
    options.signal?.throwIfAborted();
    target = next;
  }
}

async function* walk<Item>(start: string, options: IteratePagesOptions): AsyncGenerator<PageBody<Item>> {
  // Looked up per walk, not at import, so a fetch installed later (polyfill, test) is the one used.
  const send: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const inits = requestInits(options);
  const origin = new URL(start).origin;
  const visited = new Set<string>();
  let url: string | null = start;
  while (url !== null) {
    options.signal?.throwIfAborted();
    visited.add(url);
    const { response, here } = await fetchPage(send, url, inits, origin, options);
    visited.add(here);
    const body = await readPage(response, here);
    // A custom fetch may ignore the signal; an abort during the request still ends the walk.
    options.signal?.throwIfAborted();
    const next = nextUrl(body, response, here);
    yield body as PageBody<Item>;
    if (next !== null && visited.has(next)) {
      throw new PagewiseClientError({
        status: response.status,
        code: 'loop',
        detail: `The page at ${here} links back to ${next}, a page this walk already fetched.`,
        url: next,
        body,
      });
    }
    if (next !== null && options.allowCrossOrigin !== true && new URL(next).origin !== origin) {
      throw new PagewiseClientError({
        status: response.status,
        code: 'cross_origin',
        detail: `The next link leaves ${origin}; pass allowCrossOrigin: true to follow it.`,
        url: next,
        body,
      });
    }
    url = next;
  }
}

/**
 * Walks a paginated list page by page, following each page's `next` (the body's field, else the
 * `Link` header's `rel="next"`) until a page has none. Works with every Pagewise style (page
 * number, limit/offset, cursor) and with DRF. Each iteration of the returned value walks anew.
 *
 * Rejects with `PagewiseClientError` on a non-2xx answer (`status`, `detail`), a body that is not
 * a page, or a `next` that repeats a page already fetched (`loop`); with the signal's reason
 * when `signal` aborts.
 *
 * @example
 * for await (const page of iteratePages<Article>('https://api.example/v1/articles/')) {
 *   console.log(pageResults(page).length);
 * }
 */
export function iteratePages<Item = unknown>(
  url: string | URL,
  options: IteratePagesOptions = {},
): AsyncIterable<PageBody<Item>> {
  // Checked now, so a wrong URL or header fails where it is written rather than at the first iteration.
  const start = resolveStart(url);
  requestInits(options);
  return Object.freeze({ [Symbol.asyncIterator]: () => walk<Item>(start, options) });
}

/**
 * Every item of a paginated list, in order, fetching pages as the loop asks for them (breaking
 * out of the loop fetches no more). A bare-array body is one page of items. Aborting `signal` rejects
 * at the next item, even within a page already fetched.
 *
 * @example
 * interface Article { id: number; title: string }
 * for await (const article of iterateResults<Article>('https://api.example/v1/articles/feed/')) {
 *   console.log(article.title);
 * }
 */
export function iterateResults<Item = unknown>(
  url: string | URL,
  options: IteratePagesOptions = {},
): AsyncIterable<Item> {
  const pages = iteratePages<Item>(url, options);
  return Object.freeze({
    async *[Symbol.asyncIterator]() {
      for await (const page of pages) {
        for (const item of pageResults(page)) {
          // An abort ends the walk at once, not after the rest of the page already fetched.
          options.signal?.throwIfAborted();
          yield item;
        }
      }
    },
  });
}
