/** What a view answers: a status, headers and data that the bindings render (JSON by default). */
export class ApiResponse<Data = unknown> {
  /** HTTP status. @default 200 */
  status: number;
  readonly headers: Headers;
  data: Data;

  /**
   * @example
   * new ApiResponse({ detail: 'Not found.' }, { status: 404 })
   */
  constructor(data: Data, init: { status?: number; headers?: HeadersInit } = {}) {
    this.data = data;
    this.status = init.status ?? 200;
    this.headers = new Headers(init.headers);
  }

  /**
   * A Web `Response`. A string body with a `Content-Type` already set is sent as it is;
   * anything else is sent as JSON.
   */
  toFetchResponse(): Response {
    const headers = new Headers(this.headers);
    const noBody = this.status === 204 || this.status === 304;
    if (typeof this.data === 'string' && headers.has('content-type')) {
      return new Response(noBody ? null : this.data, { status: this.status, headers });
    }
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    return new Response(noBody ? null : JSON.stringify(this.data, jsonReplacer), {
      status: this.status,
      headers,
    });
  }
}

/** JSON has no bigint: send it as a decimal string, as DRF's encoder does for Decimal. */
export function jsonReplacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}
