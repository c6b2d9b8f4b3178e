import type { OrderTerm } from '@pagewise/core';
import { is, Name, Param, Placeholder, SQL, StringChunk, sql } from 'drizzle-orm';
import type { SelectConfig } from './builder-config.js';
import type { DrizzleShared } from './drizzle-query.js';
import { drizzleSessionOf } from './drizzle-session.js';
import type { DrizzleQueryOptions } from './options.js';
import { WHERE_VALUE } from './statements.js';

// A request handler builds its Drizzle select anew on every request: the same table, selection,
// joins and ordering, its WHERE the same but for its values. Such builders share one shape: their
// statements are built and prepared once, from the config of the first with its WHERE values
// replaced by placeholders (`w0`, `w1`, ...), and each builder of the shape runs them with its own
// values. A builder is matched against the recent shapes of its database without building any
// SQL: the same objects (table, columns, dialect), the same strings, and in the WHERE values where
// the shape has values. Anything else (a `sql.placeholder` of the caller's, inlined parameters,
// an object of a kind not known here that differs) is a shape of its own.

/** How a chunk of a Drizzle SQL tree is compared, by its class (asked with `is()` once per class). */
type ChunkKind = 'sql' | 'string' | 'param' | 'placeholder' | 'name' | 'other';

function kindOf(chunk: object, kinds: Map<unknown, ChunkKind>): ChunkKind {
  const type = chunk.constructor;
  let kind = kinds.get(type);
  if (kind === undefined) {
    if (is(chunk, SQL)) kind = 'sql';
    else if (is(chunk, StringChunk)) kind = 'string';
    else if (is(chunk, Param)) kind = 'param';
    else if (is(chunk, Placeholder)) kind = 'placeholder';
    else if (is(chunk, Name)) kind = 'name';
    else kind = 'other';
    kinds.set(type, kind);
  }
  return kind;
}

/** Whether `tree` writes its values into the text (`sql.inline`, `.inlineParams()`). */
function inlined(tree: SQL): boolean {
  return (tree as unknown as { shouldInlineParams?: boolean }).shouldInlineParams === true;
}

/** A value the database receives for `param`, or `undefined` when it is not a plain value (a placeholder, SQL). */
function driverValue(param: Param): { value: unknown } | undefined {
  const value = param.value;
  if (value === null) return { value: null };
  if (typeof value === 'object' && (is(value, Placeholder) || is(value, SQL))) return undefined;
  const mapped = param.encoder.mapToDriverValue(value);
  if (typeof mapped === 'object' && mapped !== null && is(mapped, SQL)) return undefined;
  return { value: mapped };
}

/**
 * Whether `next` has the shape of `known`; with `values`, a value (a `Param` or a bare value in
 * a SQL tree) may differ and is pushed there as the database receives it; without, values must be
 * equal too.
 */
export function sameShape(
  known: unknown,
  next: unknown,
  values: unknown[] | null,
  kinds: Map<unknown, ChunkKind>,
): boolean {
  if (known === next && values === null) return true;
  if (typeof known !== 'object' || known === null) {
    if (values === null || known === undefined) return known === next;
    // A bare value in a SQL tree is a parameter.
    if (typeof next === 'object' && next !== null) return false;
    if (next === undefined || typeof known !== typeof next) return false;
    values.push(next);
    return true;
  }
  if (typeof next !== 'object' || next === null) return false;
  if (Array.isArray(known)) {
    if (!Array.isArray(next) || next.length !== known.length) return false;
    for (let i = 0; i < known.length; i += 1) if (!sameShape(known[i], next[i], values, kinds)) return false;
    return true;
  }
  if (known.constructor !== next.constructor) return false;
  switch (kindOf(known, kinds)) {
    case 'sql': {
      const a = known as SQL;
      const b = next as SQL;
      if (inlined(a) || inlined(b)) return false;
      return sameShape(a.queryChunks, b.queryChunks, values, kinds);
    }
    case 'string': {
      const a = (known as StringChunk).value;
      const b = (next as StringChunk).value;
      if (a.length !== b.length) return false;
      for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
      return true;
    }
    case 'param': {
      const a = known as Param;
      const b = next as Param;
      if (a.encoder !== b.encoder) return false;
      const value = driverValue(b);
      if (value === undefined || driverValue(a) === undefined) return false;
      if (values !== null) values.push(value.value);
      else if (a.value !== b.value) return false;
      return true;
    }
    case 'name':
      return (known as Name).value === (next as Name).value;
    case 'placeholder':
      return false;
    default:
      if (known === next) return true;
      if (Object.getPrototypeOf(known) !== Object.prototype) return false;
      // A plain object (a selection, a join, the nullability of joins): the same keys, the same shapes.
      return sameEntries(known as Record<string, unknown>, next as Record<string, unknown>, kinds);
  }
}

function sameEntries(
  known: Record<string, unknown>,
  next: Record<string, unknown>,
  kinds: Map<unknown, ChunkKind>,
): boolean {
  const keys = Object.keys(known);
  if (Object.keys(next).length !== keys.length) return false;
  for (const key of keys) {
    if (!Object.hasOwn(next, key) || !sameShape(known[key], next[key], null, kinds)) return false;
  }
  return true;
}

/**
 * `where` with each of its values replaced by a placeholder (`w0`, `w1`, ... in the order
 * `sameShape` pushes them), and those values; `undefined` when it holds something that cannot be
 * (a placeholder of the caller's, SQL as a value, inlined parameters).
 *
 * @example
 * templated(eq(posts.published, true), kinds) // { where: "posts"."published" = :w0, values: [true] }
 */
export function templated(
  where: SQL,
  kinds: Map<unknown, ChunkKind>,
): { where: SQL; values: unknown[] } | undefined {
  const values: unknown[] = [];
  const swap = (chunk: unknown): unknown => {
    if (typeof chunk !== 'object' || chunk === null) {
      if (chunk === undefined) return chunk;
      values.push(chunk);
      return sql.placeholder(`${WHERE_VALUE}${values.length - 1}`);
    }
    if (Array.isArray(chunk)) {
      const out = chunk.map(swap);
      return out.includes(FAIL) ? FAIL : out;
    }
    switch (kindOf(chunk, kinds)) {
      case 'sql': {
        const tree = chunk as SQL;
        if (inlined(tree)) return FAIL;
        const chunks = tree.queryChunks.map(swap);
        return chunks.includes(FAIL) ? FAIL : new SQL(chunks as SQL['queryChunks']);
      }
      case 'param': {
        const value = driverValue(chunk as Param);
        if (value === undefined) return FAIL;
        values.push(value.value);
        return sql.placeholder(`${WHERE_VALUE}${values.length - 1}`);
      }
      case 'placeholder':
        return FAIL;
      default:
        return chunk;
    }
  };
  const out = swap(where);
  return out === FAIL ? undefined : { where: out as SQL, values };
}

const FAIL = Symbol('not templated');

/** One shape: the config of its first builder (to match the next ones against), and what they share. */
export interface DrizzleShape {
  readonly config: SelectConfig;
  readonly dialect: unknown;
  readonly joins: Record<string, boolean> | undefined;
  readonly options: DrizzleQueryOptions;
  readonly shared: DrizzleShared;
  /** The builder's own ordering, as result-key terms. */
  readonly own: readonly OrderTerm[];
}

/** Shapes matched against, most recently used first; routes are few, the bound only guards against generated builders. */
const RECENT = 32;

/** The shapes of one Drizzle database, kept on its session (which lives and dies with the db). */
export class DrizzleShapes {
  readonly #recent: DrizzleShape[] = [];
  readonly #kinds = new Map<unknown, ChunkKind>();

  /** The shape of `select` and its WHERE values, when a recent one has it (`sameShape`). */
  find(select: unknown, options: DrizzleQueryOptions): { shape: DrizzleShape; where: unknown[] } | undefined {
    const builder = select as {
      config?: SelectConfig;
      dialect?: unknown;
      joinsNotNullableMap?: unknown;
    } | null;
    const config = builder?.config;
    if (config === undefined || typeof config !== 'object') return undefined;
    const recent = this.#recent;
    for (let i = 0; i < recent.length; i += 1) {
      const shape = recent[i]!;
      if (
        shape.dialect !== builder!.dialect ||
        shape.options.uniqueKey !== options.uniqueKey ||
        shape.options.columns !== options.columns ||
        (shape.options.deferredJoin === true) !== (options.deferredJoin === true) ||
        options.countQuery !== undefined
      )
        continue;
      const where: unknown[] = [];
      if (!this.#sameConfig(shape.config, config, where)) continue;
      if (!sameShape(shape.joins, builder!.joinsNotNullableMap ?? undefined, null, this.#kinds)) continue;
      if (i > 0) {
        recent.splice(i, 1);
        recent.unshift(shape);
      }
      return { shape, where };
    }
    return undefined;
  }

  /** `config` with its WHERE values as placeholders, and those values; `undefined` when it cannot be (`templated`). */
  template(config: SelectConfig): { config: SelectConfig; values: unknown[] } | undefined {
    if (config.where === undefined) return { config, values: [] };
    const done = templated(config.where, this.#kinds);
    return done === undefined
      ? undefined
      : { config: Object.freeze({ ...config, where: done.where }), values: done.values };
  }

  remember(shape: DrizzleShape): void {
    this.#recent.unshift(shape);
    if (this.#recent.length > RECENT) this.#recent.pop();
  }

  /** Every key of the config the same (`sameShape`), the WHERE's values pushed to `where`. */
  #sameConfig(known: SelectConfig, next: SelectConfig, where: unknown[]): boolean {
    const kinds = this.#kinds;
    const a = known as unknown as Record<string, unknown>;
    const b = next as unknown as Record<string, unknown>;
    for (const key in b) {
      const value = b[key];
      if (!Object.hasOwn(a, key)) {
        if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
        return false;
      }
      if (key === 'where') {
        if (value === undefined ? a.where !== undefined : !sameShape(a.where, value, where, kinds))
          return false;
      } else if (!sameShape(a[key], value, null, kinds)) return false;
    }
    for (const key in a) {
      if (!Object.hasOwn(b, key)) {
        const value = a[key];
        if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
        return false;
      }
    }
    return true;
  }
}

/** Where a database's shapes are kept: on its Drizzle session, beside its catalog cache. */
const OWN_SHAPES = Symbol('pagewise shapes');

/** The shapes of `db`'s session, made the first time; `undefined` for a frozen session or no db. */
export function shapesOf(db: unknown): DrizzleShapes | undefined {
  const session = drizzleSessionOf(db) as { [OWN_SHAPES]?: DrizzleShapes } | undefined;
  if (session === undefined) return undefined;
  const own = session[OWN_SHAPES];
  if (own !== undefined) return own;
  if (!Object.isExtensible(session)) return undefined;
  const shapes = new DrizzleShapes();
  Object.defineProperty(session, OWN_SHAPES, { value: shapes, enumerable: false });
  return shapes;
}
