import { ConfigurationError } from '@pagewise/core';
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

/** `Routes`' reverse with an extra keyword argument (see `Routes[REVERSE_PATH]`). */
export const REVERSE_PATH = Symbol('pagewise.reversePath');
/** Adds a route in a given namespace (see `Routes[ADD_ROUTE]`); core's own, as `REVERSE_PATH`. */
export const ADD_ROUTE = Symbol('pagewise.addRoute');

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
 * A literal of a pattern (`literal` set), or a parameter with its pattern. Every piece has the
 * same fields, so the loop that reverses once per serialized row reads one object shape.
 */
interface Piece {
  /** The literal text; `null` for a parameter. */
  readonly literal: string | null;
  /** The parameter's name; `''` for a literal. */
  readonly param: string;
  /** `^(?:pattern)$` of a parameter. */
  readonly test: RegExp | null;
  /** The default `[^/]+`, checked without the regex: not empty, no `/`. */
  readonly anySegment: boolean;
  /** A pattern that is an alternation of plain words (`v1|v2`): the words, checked without the regex. */
  readonly choices: ReadonlySet<string> | null;
}

interface CompiledRoute extends Route {
  readonly regex: RegExp;
  readonly pieces: readonly Piece[];
  readonly paramSet: ReadonlySet<string>;
  /** Every literal is path-safe: a reversed path needs quoting only when a value does. */
  readonly safeLiterals: boolean;
}

const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]*/;
const DEFAULT_PARAM = '[^/]+';
const WORDS = /^[A-Za-z0-9_-]+(?:\|[A-Za-z0-9_-]+)*$/;
/** RFC 3986 unreserved + sub-delims + `/ : @`: what Django's `reverse` leaves unquoted. */
const PATH_SAFE_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-~!$&'()*+,;=:@/";
const PATH_SAFE_CODES: readonly boolean[] = Array.from({ length: 128 }, (_, code) =>
  PATH_SAFE_CHARS.includes(String.fromCharCode(code)),
);
const utf8 = new TextEncoder();

/** Whether `text` is all path-safe characters (a loop: reversing checks every value). */
function isPathSafe(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    if (PATH_SAFE_CODES[text.charCodeAt(i)] !== true) return false;
  }
  return true;
}

function quotePath(text: string): string {
  if (isPathSafe(text)) return text;
  let out = '';
  for (const ch of text) {
    if (ch.length === 1 && isPathSafe(ch)) out += ch;
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
    if (literal) pieces.push(literalPiece(literal));
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
    pieces.push({
      literal: null,
      param: name,
      test: new RegExp(`^(?:${source})$`),
      anySegment: source === DEFAULT_PARAM,
      choices: WORDS.test(source) ? new Set(source.split('|')) : null,
    });
  }
  if (literal) pieces.push(literalPiece(literal));
  return pieces;
}

function literalPiece(literal: string): Piece {
  return { literal, param: '', test: null, anySegment: false, choices: null };
}

function compile(
  pattern: string,
  name: string | null,
  namespace: string | null,
  handler: RouteHandler | null,
): CompiledRoute {
  if (!pattern.startsWith('/')) throw new ConfigurationError(`Route patterns start with "/": ${pattern}`);
  // A trailing `/?` is Django's regex `/?`: matched with or without the slash, reversed without
  // it (what `formatSuffixPatterns` gives `.json` routes). A `?` is never part of a path, so no
  // route that matched anything before reads differently.
  const optionalSlash = pattern.endsWith('/?');
  const pieces = parsePattern(optionalSlash ? pattern.slice(0, -2) : pattern);
  const params: string[] = [];
  let source = '^';
  for (const piece of pieces) {
    if (piece.literal !== null) {
      source += escapeRegExp(piece.literal);
      continue;
    }
    if (params.includes(piece.param)) {
      throw new ConfigurationError(`Route pattern ${pattern} names :${piece.param} twice`);
    }
    source += `(?<p${params.length}>${piece.test!.source.slice(1, -1)})`;
    params.push(piece.param);
  }
  return Object.freeze({
    pattern,
    name,
    namespace,
    fullName: name === null ? null : namespace ? `${namespace}:${name}` : name,
    handler,
    params: Object.freeze(params),
    regex: new RegExp(`${source}${optionalSlash ? '/?' : ''}$`),
    pieces: Object.freeze(pieces),
    paramSet: new Set(params),
    safeLiterals: pieces.every((piece) => piece.literal === null || isPathSafe(piece.literal)),
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
 * Parameters are `:name` (one path segment) or `:name(regex)`, e.g. `:version(v1|v2)`. A pattern
 * ending in `/?` matches with or without its last slash and reverses without it
 * (`/articles.:format(json|api)/?`).
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
   * `add` in a namespace, for tables rebuilt from another one's routes (`formatSuffixPatterns`).
   * Core's own; not exported from the package.
   */
  [ADD_ROUTE](
    pattern: string,
    name: string | null,
    namespace: string | null,
    handler: RouteHandler | null,
  ): this {
    this.#push(compile(pattern, name, namespace, handler));
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
    return this[REVERSE_PATH](name, args, kwargs, null, '');
  }

  /**
   * `reversePath` with one more keyword argument, `extraName` (unless `kwargs` has it): what
   * `URLPathVersioning` adds for the request's version, without copying the caller's objects
   * once per serialized row. Core's own; not exported from the package.
   */
  [REVERSE_PATH](
    name: string,
    args: ReadonlyArray<string | number>,
    kwargs: Readonly<Record<string, string | number>>,
    extraName: string | null,
    extraValue: string,
  ): string {
    const candidates = this.#byName.get(name);
    if (candidates === undefined) throw this.#unknownName(name);
    const extra = extraName !== null && !Object.hasOwn(kwargs, extraName);
    // The own keys, counted and checked below by `for...in` + `hasOwn` (the keys of `Object.keys`,
    // without its array): serializers reverse once per row.
    let given = 0;
    for (const key in kwargs) if (Object.hasOwn(kwargs, key)) given += 1;
    const count = args.length + (extra ? 1 : 0) + given;
    // Serializers reverse once per row: one pass over the pieces, no intermediate objects. Indexed
    // loops: `pieces` is frozen, and V8 does not inline a `for...of` iterator over a frozen array,
    // which then allocates a result object per step (~240 bytes per reversed URL).
    for (let r = 0; r < candidates.length; r += 1) {
      const route = candidates[r]!;
      if (route.params.length !== count) continue;
      const paramSet = route.paramSet;
      if (extra && !paramSet.has(extraName)) continue;
      let known = true;
      for (const key in kwargs) {
        if (Object.hasOwn(kwargs, key) && !paramSet.has(key)) {
          known = false;
          break;
        }
      }
      if (!known) continue;
      // Positional arguments fill the parameters no keyword names, in pattern order.
      let positional = 0;
      let path = '';
      let safe = route.safeLiterals;
      let fits = true;
      const pieces = route.pieces;
      for (let i = 0; i < pieces.length; i += 1) {
        const piece = pieces[i]!;
        if (piece.literal !== null) {
          path += piece.literal;
          continue;
        }
        const param = piece.param;
        const value = Object.hasOwn(kwargs, param)
          ? String(kwargs[param])
          : extra && param === extraName
            ? extraValue
            : String(args[positional++]);
        if (
          piece.anySegment
            ? value === '' || value.includes('/')
            : piece.choices !== null
              ? !piece.choices.has(value)
              : !piece.test!.test(value)
        ) {
          fits = false;
          break;
        }
        if (safe && !isPathSafe(value)) safe = false;
        path += value;
      }
      if (fits) {
        // A pattern that is only `/?` reverses to `/`, never to an empty path.
        if (path === '') return '/';
        return safe ? path : quotePath(path);
      }
    }
    const all = extra ? { [extraName]: extraValue, ...kwargs } : kwargs;
    throw new NoReverseMatch(
      `Reverse for '${name}' with arguments '${JSON.stringify(args)}' and keyword arguments ` +
        `'${JSON.stringify(all)}' not found. ${candidates.length} pattern(s) tried: ` +
        `[${candidates.map((route) => `'${route.pattern}'`).join(', ')}]`,
    );
  }

  #unknownName(name: string): NoReverseMatch {
    const namespace = name.includes(':') ? name.slice(0, name.lastIndexOf(':')) : null;
    if (namespace !== null && !this.#routes.some((r) => r.namespace === namespace)) {
      return new NoReverseMatch(`'${namespace}' is not a registered namespace`);
    }
    return new NoReverseMatch(
      `Reverse for '${name}' not found. '${name}' is not a valid view function or pattern name.`,
    );
  }
}
