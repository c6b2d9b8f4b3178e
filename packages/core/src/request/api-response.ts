/**
 * Sets a header on a response that has not made its `Headers` yet, without making them: a
 * paginated response's `Link` is often read only when the response is written (`toWire`), which
 * then builds one `Headers` instead of two. Core's own; not exported from the package.
 */
export const SET_HEADER_LATER = Symbol('pagewise.setHeaderLater');
const WIRE_HEADERS = Symbol('pagewise.wireHeaders');

/** What a view answers: a status, headers and data that the bindings render (JSON by default). */
export class ApiResponse<Data = unknown> {
  /** HTTP status. @default 200 */
  status: number;
  data: Data;
  #headers: Headers | undefined;
  /** Headers set through `SET_HEADER_LATER` while `#headers` is not made. */
  #later: Array<[string, string]> | undefined;

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
    // Given headers are copied now, as before (a caller may change its own object afterwards, and
    // a bad name throws here); without any, they are made when first read.
    if (init.headers !== undefined) this.#headers = new Headers(init.headers);
  }

  /** The response headers (a `Headers` made on first use). */
  get headers(): Headers {
    if (this.#headers === undefined) {
      this.#headers = new Headers(this.#later);
      this.#later = undefined;
    }
    return this.#headers;
  }

  /** `headers.set(name, value)`, deferred while the headers are not made. */
  [SET_HEADER_LATER](name: string, value: string): void {
    if (this.#headers !== undefined) this.#headers.set(name, value);
    else if (this.#later === undefined) this.#later = [[name, value]];
    else this.#later.push([name, value]);
  }

  /** A copy of the headers for the wire, made from the deferred pairs when nobody read them. */
  [WIRE_HEADERS](): Headers {
    return new Headers(this.#headers ?? this.#later);
  }

  /**
   * A Web `Response` with `toWire`'s rules: a string body with a `Content-Type` already set is
   * sent as it is, anything else as JSON; no body for HEAD, 204 and 304.
   *
   * @example
   * new ApiResponse({ ok: true }).toFetchResponse() // 200, application/json, '{"ok":true}'
   */
  toFetchResponse(method = 'GET'): Response {
    const wire = toWire(this, method);
    return new Response(wire.body, { status: wire.status, headers: wire.headers });
  }
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
 * `Content-Type` is sent as it is, anything else as JSON.
 *
 * @example
 * toWire(new ApiResponse([1]), 'HEAD') // { status: 200, headers, body: null }
 */
export function toWire(response: ApiResponse, method: string): WireResponse {
  const headers =
    typeof response[WIRE_HEADERS] === 'function' ? response[WIRE_HEADERS]() : new Headers(response.headers);
  let body: string;
  if (typeof response.data === 'string' && headers.has('content-type')) {
    body = response.data;
  } else {
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    body = stringifyJson(response.data) ?? '';
  }
  const empty = method === 'HEAD' || response.status === 204 || response.status === 304;
  if (response.status !== 204 && response.status !== 304) {
    headers.set('content-length', String(utf8.encode(body).byteLength));
  }
  return { status: response.status, headers, body: empty ? null : body };
}
