import { pathToFileURL } from 'node:url';

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

/**
 * The URL of package `pkg`'s entry in the checkout at `dir`, built as this process runs its own
 * Pagewise: an A/B of the built packages against another checkout's sources (or the other way)
 * times tsc's output against tsx's, not two versions of Pagewise (that checkout's sources ran ~25%
 * slower per page in one process beside this one's `dist`).
 *
 * @example
 * await import(checkoutEntry('/tmp/base', 'core')) // /tmp/base/packages/core/dist/index.js under `pnpm bench`
 */
export function checkoutEntry(dir: string, pkg: string): string {
  const entry = pagewiseBuild() === 'dist' ? 'dist/index.js' : 'src/index.ts';
  return pathToFileURL(`${dir}/packages/${pkg}/${entry}`).href;
}
