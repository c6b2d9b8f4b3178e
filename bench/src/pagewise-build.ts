/**
 * Which Pagewise a module URL of `@pagewise/core` is: its `dist` (the tsc output an install runs)
 * or its TypeScript sources (the `@pagewise/source` condition, through tsx).
 *
 * @example
 * pagewiseBuildOf(import.meta.resolve('@pagewise/core')) // 'dist' under `pnpm bench`
 */
export function pagewiseBuildOf(url: string): 'dist' | 'source' {
  return /\/packages\/core\/dist\//.test(url) ? 'dist' : 'source';
}

/** The Pagewise this process runs: `dist` under `pnpm bench`, `source` under vitest. */
export function pagewiseBuild(): 'dist' | 'source' {
  return pagewiseBuildOf(import.meta.resolve('@pagewise/core'));
}
