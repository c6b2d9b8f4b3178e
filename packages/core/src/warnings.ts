/** What Node's `process.emitWarning` takes besides a text warning. */
export interface WarningOptions {
  /** Name of a text warning, e.g. `'PagewiseWarning'`. */
  readonly type?: string;
  /** A stable identifier, e.g. `'pagewise.W001'`. */
  readonly code?: string;
  /** More text, e.g. how to fix it. */
  readonly detail?: string;
}

/**
 * Receives Pagewise's warnings (`UnorderedObjectListWarning`, the settings' W001 check); it has
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
