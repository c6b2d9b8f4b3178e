import { ConfigurationError } from '../errors.js';
import type { ApiRequest, RouteParams } from '../request/api-request.js';

/**
 * What a route runs. Views made with `ListView.asView()` or `apiView()` answer an `ApiResponse`;
 * a plain handler may answer an `ApiResponse` or data (sent as JSON with status 200).
 *
 * @example
 * const health: RouteHandler = () => ({ ok: true });
 */
export type RouteHandler = (request: ApiRequest) => unknown;

/**
 * One compiled route.
 *
 * @example
 * routes.routes.map((route) => route.fullName) // ['article-list', 'v1:article-list']
 */
export interface Route {
  /** The full pattern, prefixes included: `/v1/articles/:pk/`. */
  readonly pattern: string;
  /** The route's own name, `null` when unnamed. */
  readonly name: string | null;
  /** The namespace it was included under (`v1`, `v1:nested`), `null` at the top level. */
  readonly namespace: string | null;
  /** What `reverse` is given: `v1:article-detail`. */
  readonly fullName: string | null;
  readonly handler: RouteHandler | null;
  /** Parameter names in pattern order. */
  readonly params: readonly string[];
}

/**
 * What `Routes.match` found for a path.
 *
 * @example
 * routes.match('/v1/articles/7/') // { params: { pk: '7' }, namespace: 'v1', ... }
 */
export interface RouteMatch {
  readonly route: Route;
  readonly handler: RouteHandler | null;
  /** Decoded path parameters. */
  readonly params: RouteParams;
  readonly namespace: string | null;
}

/**
 * Django's `NoReverseMatch`: no route of that name accepts those arguments. `reverse` falls back
 * to the unversioned route when a versioning scheme's reverse throws it.
 *
 * @example
 * expect(() => routes.reversePath('nope')).toThrow(NoReverseMatch);
 */
export class NoReverseMatch extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NoReverseMatch';
  }
}

/**
 * A literal of a pattern, or a parameter with its pattern (`anySegment`: the default `[^/]+`,
 * checked without the regex: not empty, no `/`).
 */
type Piece =
  | { readonly literal: string }
  | { readonly param: string; readonly test: RegExp; readonly anySegment: boolean };

interface CompiledRoute extends Route {
  readonly regex: RegExp;
  readonly pieces: readonly Piece[];
  /** Every literal is path-safe: a reversed path needs quoting only when a value does. */
  readonly safeLiterals: boolean;
}

const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]*/;
const DEFAULT_PARAM = '[^/]+';
/** RFC 3986 unreserved + sub-delims + `/ : @`: what Django's `reverse` leaves unquoted. */
const PATH_SAFE = /[A-Za-z0-9_.\-~!$&'()*+,;=:@/]/;
const utf8 = new TextEncoder();

const ALL_PATH_SAFE = /^[A-Za-z0-9_.\-~!$&'()*+,;=:@/]*$/;

function quotePath(text: string): string {
  if (ALL_PATH_SAFE.test(text)) return text;
  let out = '';
  for (const ch of text) {
    if (PATH_SAFE.test(ch)) out += ch;
    else for (const b of utf8.encode(ch)) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Splits `/:version(v1|v2)/articles/:pk/` into literals and parameters. */
function parsePattern(pattern: string): Piece[] {
  const pieces: Piece[] = [];
  let literal = '';
  let i = 0;
  while (i < pattern.length) {
    const name = pattern[i] === ':' ? PARAM_NAME.exec(pattern.slice(i + 1))?.[0] : undefined;
    if (name === undefined) {
      literal += pattern[i];
      i += 1;
      continue;
    }
    if (literal) pieces.push({ literal });
    literal = '';
    i += 1 + name.length;
    let source = DEFAULT_PARAM;
    if (pattern[i] === '(') {
      let depth = 0;
      let end = i;
      for (; end < pattern.length; end += 1) {
        if (pattern[end] === '\\') end += 1;
        else if (pattern[end] === '(') depth += 1;
        else if (pattern[end] === ')' && --depth === 0) break;
      }
      if (depth !== 0) throw new ConfigurationError(`Unbalanced parenthesis in route pattern ${pattern}`);
      source = pattern.slice(i + 1, end);
      i = end + 1;
    }
    pieces.push({ param: name, test: new RegExp(`^(?:${source})$`), anySegment: source === DEFAULT_PARAM });
  }
  if (literal) pieces.push({ literal });
  return pieces;
}

function compile(
  pattern: string,
  name: string | null,
  namespace: string | null,
  handler: RouteHandler | null,
): CompiledRoute {
  if (!pattern.startsWith('/')) throw new ConfigurationError(`Route patterns start with "/": ${pattern}`);
  const pieces = parsePattern(pattern);
  const params: string[] = [];
  let source = '^';
  for (const piece of pieces) {
    if ('literal' in piece) {
      source += escapeRegExp(piece.literal);
      continue;
    }
    if (params.includes(piece.param)) {
      throw new ConfigurationError(`Route pattern ${pattern} names :${piece.param} twice`);
    }
    source += `(?<p${params.length}>${piece.test.source.slice(1, -1)})`;
    params.push(piece.param);
  }
  return Object.freeze({
    pattern,
    name,
    namespace,
    fullName: name === null ? null : namespace ? `${namespace}:${name}` : name,
    handler,
    params: Object.freeze(params),
    regex: new RegExp(`${source}$`),
    pieces: Object.freeze(pieces),
    safeLiterals: pieces.every((piece) => !('literal' in piece) || ALL_PATH_SAFE.test(piece.literal)),
  });
}

function joinPattern(prefix: string, pattern: string): string {
  const head = prefix.replace(/\/+$/, '');
  return `${head.startsWith('/') ? head : `/${head}`}${pattern.startsWith('/') ? pattern : `/${pattern}`}`;
}

function decodeParam(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * A route table (Django's URLconf): named patterns with path parameters, nested namespaces,
 * matching and reversing. The first route that matches a path wins; `reverse` tries the routes
 * of a name from the last added, as Django does, and takes the one whose parameters fit.
 *
 * Parameters are `:name` (one path segment) or `:name(regex)`, e.g. `:version(v1|v2)`.
 *
 * @example
 * const routes = new Routes()
 *   .add('/:version/articles/', 'article-list', ArticleList.asView())
 *   .include('/v1', 'v1', (v1) => v1.add('/articles/:pk/', 'article-detail', detail));
 * routes.reversePath('v1:article-detail', [], { pk: 7 }); // '/v1/articles/7/'
 */
export class Routes {
  readonly #routes: CompiledRoute[] = [];
  /** Routes by full name, last added first (the order `reversePath` tries them): serializers reverse once per row. */
  readonly #byName = new Map<string, CompiledRoute[]>();

  #push(route: CompiledRoute): void {
    this.#routes.push(route);
    if (route.fullName !== null) {
      const named = this.#byName.get(route.fullName);
      if (named) named.unshift(route);
      else this.#byName.set(route.fullName, [route]);
    }
  }

  /** The routes in the order they are tried. */
  get routes(): readonly Route[] {
    return this.#routes;
  }

  /**
   * Adds a route. `handler` may be omitted for routes that only need reversing.
   *
   * @example
   * routes.add('/articles/:pk/', 'article-detail', handler);
   */
  add(pattern: string, name: string | null, handler?: RouteHandler | null): this {
    this.#push(compile(pattern, name, null, handler ?? null));
    return this;
  }

  /**
   * Adds the routes `build` declares under a path prefix and a namespace; namespaces nest
   * (`v1:nested`), and their names are reversed as `<namespace>:<name>`.
   *
   * @example
   * routes.include('/v1', 'v1', (v1) => v1.add('/articles/', 'article-list', list));
   */
  include(prefix: string, namespace: string, build: (routes: Routes) => void): this {
    if (namespace === '' || namespace.includes(':')) {
      throw new ConfigurationError(
        `A namespace is one non-empty name without ":": ${JSON.stringify(namespace)}`,
      );
    }
    const child = new Routes();
    build(child);
    for (const route of child.#routes) {
      this.#push(
        compile(
          joinPattern(prefix, route.pattern),
          route.name,
          route.namespace ? `${namespace}:${route.namespace}` : namespace,
          route.handler,
        ),
      );
    }
    return this;
  }

  /**
   * The first route matching `pathname` (percent-encoded, as in `URL.pathname`), or `null`.
   *
   * @example
   * routes.match('/v1/articles/7/')?.params // { pk: '7' }
   */
  match(pathname: string): RouteMatch | null {
    for (const route of this.#routes) {
      const found = route.regex.exec(pathname);
      if (!found) continue;
      const params: Record<string, string> = {};
      route.params.forEach((name, index) => {
        params[name] = decodeParam(found.groups?.[`p${index}`] ?? '');
      });
      return { route, handler: route.handler, params: Object.freeze(params), namespace: route.namespace };
    }
    return null;
  }

  /**
   * Django's `reverse` without a request: the path of the named route whose parameters are
   * exactly the given ones. Keyword arguments fill their parameters; positional arguments fill
   * the rest in order. Values must match the parameter's pattern. Throws `NoReverseMatch`.
   *
   * @example
   * routes.reversePath('another', [], { version: 'v1' }); // '/v1/another/'
   */
  reversePath(
    name: string,
    args: ReadonlyArray<string | number> = [],
    kwargs: Readonly<Record<string, string | number>> = {},
  ): string {
    const candidates = this.#byName.get(name) ?? [];
    if (candidates.length === 0) {
      const namespace = name.includes(':') ? name.slice(0, name.lastIndexOf(':')) : null;
      if (namespace !== null && !this.#routes.some((r) => r.namespace === namespace)) {
        throw new NoReverseMatch(`'${namespace}' is not a registered namespace`);
      }
      throw new NoReverseMatch(
        `Reverse for '${name}' not found. '${name}' is not a valid view function or pattern name.`,
      );
    }
    const given = Object.keys(kwargs);
    // Serializers reverse once per row: one pass over the pieces, no intermediate objects.
    for (const route of candidates) {
      const params = route.params;
      if (params.length !== given.length + args.length) continue;
      if (!given.every((key) => params.includes(key))) continue;
      // Positional arguments fill the parameters no keyword names, in pattern order.
      let positional = 0;
      let path = '';
      let safe = route.safeLiterals;
      let fits = true;
      for (const piece of route.pieces) {
        if ('literal' in piece) {
          path += piece.literal;
          continue;
        }
        const value = given.includes(piece.param) ? String(kwargs[piece.param]) : String(args[positional++]);
        if (piece.anySegment ? value === '' || value.includes('/') : !piece.test.test(value)) {
          fits = false;
          break;
        }
        if (safe && !ALL_PATH_SAFE.test(value)) safe = false;
        path += value;
      }
      if (fits) return safe ? path : quotePath(path);
    }
    throw new NoReverseMatch(
      `Reverse for '${name}' with arguments '${JSON.stringify(args)}' and keyword arguments ` +
        `'${JSON.stringify(kwargs)}' not found. ${candidates.length} pattern(s) tried: ` +
        `[${candidates.map((route) => `'${route.pattern}'`).join(', ')}]`,
    );
  }
}
