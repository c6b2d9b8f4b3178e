import { parseQueryString } from './query-string.js';

/**
 * Read-only view of a request's query parameters with Django `QueryDict` semantics:
 * `get` answers the last value of a repeated key.
 *
 * @example
 * new QueryParams('page=2&page=3').get('page') // '3'
 */
export class QueryParams {
  readonly #pairs: ReadonlyArray<readonly [string, string]>;

  constructor(rawQuery: string) {
    this.#pairs = Object.freeze(parseQueryString(rawQuery.startsWith('?') ? rawQuery.slice(1) : rawQuery));
  }

  /** The last value of `name`, or `null` when it is absent. `?page=` gives `''`. */
  get(name: string): string | null {
    for (let i = this.#pairs.length - 1; i >= 0; i -= 1) {
      const [key, value] = this.#pairs[i]!;
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
