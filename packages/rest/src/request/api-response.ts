/** The response's headers to edit: its `Headers` once made, else its deferred list (core's own). */
export const EDIT_HEADERS = Symbol('pagewise.editHeaders');
/** A response with this one's data, status and a copy of its headers, none made (core's own). */
export const COPY_RESPONSE = Symbol('pagewise.copyResponse');
const WIRE_HEADERS = Symbol('pagewise.wireHeaders');
const WIRE_RECORD = Symbol('pagewise.wireRecord');

/**
 * What reading and setting headers needs: `Headers` has it, and so has a response's deferred
 * list, which `finalizeResponse` edits without making a `Headers` (the bindings then hand the
 * runtime a plain record, which Node's server writes without a `Headers` either).
 *
 * @example
 * const edit: HeaderEditor = new Headers();
 * edit.set('vary', 'Accept');
 */
export interface HeaderEditor {
  get(name: string): string | null;
  has(name: string): boolean;
  set(name: string, value: string): void;
}

/** Headers set but not yet made into a `Headers`: lower-cased names, each once (`set` replaces). */
class DeferredHeaders implements HeaderEditor {
  readonly pairs: Array<[string, string]>;

  constructor(pairs: Array<[string, string]> = []) {
    this.pairs = pairs;
  }

  get(name: string): string | null {
    const key = name.toLowerCase();
    for (const pair of this.pairs) if (pair[0] === key) return pair[1];
    return null;
  }

  has(name: string): boolean {
    return this.get(name) !== null;
  }

  set(name: string, value: string): void {
    const key = name.toLowerCase();
    for (const pair of this.pairs) {
      if (pair[0] === key) {
        pair[1] = value;
        return;
      }
    }
    this.pairs.push([key, value]);
  }
}

/** What a view answers: a status, headers and data that the bindings render (JSON by default). */
export class ApiResponse<Data = unknown> {
  /** HTTP status. @default 200 */
  status: number;
  data: Data;
  #headers: Headers | undefined;
  /** Headers set while `#headers` is not made. */
  #later: DeferredHeaders | undefined;

  /**
   * @example
   * new ApiResponse({ detail: 'Not found.' }, { status: 404 })
   */
  constructor(
    data: Data,
    init: { status?: number; headers?: ConstructorParameters<typeof Headers>[0] } = {},
  ) {
    this.data = data;
    this.status = init.status ?? 200;
    // Given headers are copied now (a caller may change its own object afterwards, and a bad name
    // throws here). A plain record of lower-case names and plain values (a page's `headers`) is
    // kept as it is until someone reads the headers: the bindings then write it without ever
    // making a `Headers`. Without any, they are made when first read.
    const given = init.headers;
    if (given !== undefined) {
      if (isPlainRecord(given)) this.#later = new DeferredHeaders(Object.entries(given));
      else this.#headers = new Headers(given);
    }
  }

  /** The response headers (a `Headers` made on first use). */
  get headers(): Headers {
    if (this.#headers === undefined) {
      this.#headers = new Headers(this.#later?.pairs);
      this.#later = undefined;
    }
    return this.#headers;
  }

  /** The `Headers` when made, else the deferred list (made empty when there is none). */
  [EDIT_HEADERS](): HeaderEditor {
    if (this.#headers !== undefined) return this.#headers;
    this.#later ??= new DeferredHeaders();
    return this.#later;
  }

  /** A new response with this one's data and status and a copy of its headers, not made. */
  [COPY_RESPONSE](): ApiResponse {
    const copy = new ApiResponse<unknown>(this.data, { status: this.status });
    if (this.#headers !== undefined) copy.#headers = new Headers(this.#headers);
    else if (this.#later !== undefined) {
      copy.#later = new DeferredHeaders(this.#later.pairs.map(([name, value]) => [name, value]));
    }
    return copy;
  }

  /** A copy of the headers for the wire, made from the deferred pairs when nobody read them. */
  [WIRE_HEADERS](): Headers {
    return new Headers(this.#headers ?? this.#later?.pairs);
  }

  /** The deferred headers as a fresh record when nobody made them, else `null`. */
  [WIRE_RECORD](): Record<string, string> | null {
    if (this.#headers !== undefined) return null;
    const record: Record<string, string> = {};
    if (this.#later !== undefined) for (const [name, value] of this.#later.pairs) record[name] = value;
    return record;
  }

  /**
   * A Web `Response` with `toWire`'s rules: a string body with a `Content-Type` already set is
   * sent as it is, anything else as JSON; no body for HEAD, 204 and 304, and neither a body nor a
   * `Content-Type` for 204, 304 and `undefined` data. A response with a body
   * leaves `Content-Length` to the runtime, which counts the bytes it sends; HEAD gets the
   * length its GET would have. Headers nobody read are handed over as a plain record.
   *
   * @example
   * new ApiResponse({ ok: true }).toFetchResponse() // 200, application/json, '{"ok":true}'
   */
  toFetchResponse(method = 'GET'): Response {
    const record = this[WIRE_RECORD]();
    if (record === null) {
      const wire = wireParts(this, method, new Headers(this.#headers), method === 'HEAD');
      return new Response(wire.body, { status: wire.status, headers: wire.headers });
    }
    const wire = wireParts(this, method, recordEditor(record), method === 'HEAD');
    return new Response(wire.body, { status: wire.status, headers: record });
  }
}

const HEADER_NAME = /^[a-z0-9!#$%&'*+.^_`|~-]+$/;

/** A record whose names are lower-case tokens and whose values are headers' plain text. */
function isPlainRecord(headers: unknown): headers is Record<string, string> {
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) return false;
  if (Object.getPrototypeOf(headers) !== Object.prototype) return false;
  for (const name in headers) {
    const value = (headers as Record<string, unknown>)[name];
    if (!HEADER_NAME.test(name) || typeof value !== 'string' || !isPlainHeaderValue(value)) return false;
  }
  return true;
}

/**
 * Whether `value` holds no CR, LF or NUL (what `Headers` refuses), by three character searches:
 * a page's `Link` header is long, and a regular expression walking it cost more than the rest of
 * the response.
 */
function isPlainHeaderValue(value: string): boolean {
  return value.indexOf('\r') === -1 && value.indexOf('\n') === -1 && value.indexOf('\0') === -1;
}

/** A plain record as a `HeaderEditor` (its names lower-cased, as `DeferredHeaders` keeps them). */
function recordEditor(record: Record<string, string>): HeaderEditor {
  return {
    get: (name) => record[name.toLowerCase()] ?? null,
    has: (name) => record[name.toLowerCase()] !== undefined,
    set: (name, value) => {
      record[name.toLowerCase()] = value;
    },
  };
}

/** JSON has no bigint: send it as a decimal string, as DRF's encoder does for Decimal. */
export function jsonReplacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

/**
 * `JSON.stringify(data, jsonReplacer, space)`, the same text: tried first without the replacer,
 * which keeps V8's fast serializer (a replacer function makes a page of rows about twice as slow
 * to write); only data holding a bigint (the `TypeError` it throws) goes through the replacer.
 *
 * @example
 * stringifyJson({ id: 7n }) // '{"id":"7"}'
 */
export function stringifyJson(data: unknown, space?: number): string | undefined {
  try {
    return JSON.stringify(data, null, space);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return JSON.stringify(data, jsonReplacer, space);
  }
}

const utf8 = new TextEncoder();

/**
 * A response as bytes to send: the body is `null` for HEAD, 204 and 304.
 *
 * @example
 * toWire(new ApiResponse({ a: 1 }), 'GET').body // '{"a":1}'
 */
export interface WireResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: string | null;
}

/**
 * What goes on the wire for `response`, with `toFetchResponse`'s rules: a string body with a
 * `Content-Type` is sent as it is, a 204, a 304 or `undefined` data as no body without a
 * `Content-Type`, anything else as JSON.
 *
 * @example
 * toWire(new ApiResponse([1]), 'HEAD') // { status: 200, headers, body: null }
 */
export function toWire(response: ApiResponse, method: string): WireResponse {
  const headers =
    typeof response[WIRE_HEADERS] === 'function' ? response[WIRE_HEADERS]() : new Headers(response.headers);
  return wireParts(response, method, headers, true);
}

/**
 * `toWire`'s rules on `headers` (edited in place); `Content-Length` is set only with
 * `countBody` (a Web `Response` with a body has the runtime count it).
 */
function wireParts<H extends HeaderEditor>(
  response: ApiResponse,
  method: string,
  headers: H,
  countBody: boolean,
): { status: number; headers: H; body: string | null } {
  let body: string;
  const status = response.status;
  if (typeof response.data === 'string' && headers.has('content-type')) {
    body = response.data;
  } else if (response.data === undefined || status === 204 || status === 304) {
    // Nothing to send: no body, so no Content-Type (DRF drops it for an empty rendering).
    body = '';
  } else {
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    body = stringifyJson(response.data) ?? '';
  }
  const empty = method === 'HEAD' || status === 204 || status === 304;
  if (countBody && response.status !== 204 && response.status !== 304) {
    headers.set('content-length', String(utf8.encode(body).byteLength));
  }
  return { status: response.status, headers, body: empty ? null : body };
}
