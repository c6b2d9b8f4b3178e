import type { OrderedQuery } from './contract/ordered-query.js';

/** What Node's `process.emitWarning` takes besides a text warning. */
interface WarningOptions {
  /** Name of a text warning, e.g. `'PagewiseWarning'`. */
  readonly type?: string;
  /** A stable identifier, e.g. `'pagewise.W001'`. */
  readonly code?: string;
  /** More text, e.g. how to fix it. */
  readonly detail?: string;
}

/**
 * Receives Pagewise's warnings (`UnorderedObjectListWarning`, `PaginationWarning`, the settings'
 * W001 check); it has
 * the shape of Node's `process.emitWarning`, so that function itself fits.
 *
 * @example
 * new ApiSettings({ onWarning: (warning) => logger.warn(String(warning)) })
 */
export type WarningHook = (warning: string | Error, options?: WarningOptions) => void;

interface ProcessLike {
  emitWarning?: (warning: string | Error, options?: WarningOptions) => void;
}

/**
 * The default `WarningHook`: `process.emitWarning` where the runtime has it (Node, Bun, Deno),
 * looked up at each call so that `process.on('warning')` listeners and test spies see it;
 * `console.warn` where there is no `process` (Workers, browsers).
 *
 * @example
 * emitWarning(new UnorderedObjectListWarning('...'))
 */
export function emitWarning(warning: string | Error, options?: WarningOptions): void {
  const host = (globalThis as { process?: ProcessLike }).process;
  if (typeof host?.emitWarning === 'function') {
    if (options === undefined) host.emitWarning(warning);
    else host.emitWarning(warning, options);
    return;
  }
  const text =
    typeof warning === 'string'
      ? `${options?.type ?? 'Warning'}: ${warning}`
      : `${warning.name}: ${warning.message}`;
  console.warn(text);
}

/**
 * Emitted through the warning hook (by default `process.emitWarning`) when an offset-based
 * style pages a query without a defined order: pages may then overlap or skip rows between
 * requests.
 */
export class UnorderedObjectListWarning extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnorderedObjectListWarning';
  }
}

/**
 * Emitted through the warning hook, once per paginator class, when pagination is asked for but no
 * page size is set anywhere (the paginator's options, its fields, the settings): the list is then
 * answered whole, as DRF does, which is rarely what was meant.
 */
export class PaginationWarning extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PaginationWarning';
  }
}

/** Warns through `warn`, as Django's paginator does, when `query` has no defined order. */
export function warnIfUnordered(query: OrderedQuery<unknown>, warn: WarningHook = emitWarning): void {
  if (!query.ordered) {
    warn(
      new UnorderedObjectListWarning(
        `Pagination may yield inconsistent results with an unordered object_list: ${query.description}.`,
      ),
    );
  }
}
