import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import ts from 'typescript';

/** Where `@pagewise/*` resolve from (the tests package depends on them). */
const RESOLVE_DIR = fileURLToPath(new URL('..', import.meta.url));
const PACKAGES = 'packages/';
const ENTRY = 'virtual-bundle-entry.ts';

/**
 * The code subpaths of a workspace package's `exports` map, as specifiers (`@pagewise/rest`,
 * `@pagewise/rest/hono`, ...); `./package.json` is metadata, not code.
 */
export function entryPoints(name: 'core' | 'rest'): string[] {
  const manifest = JSON.parse(
    readFileSync(new URL(`../../packages/${name}/package.json`, import.meta.url), 'utf8'),
  ) as { exports: Record<string, unknown> };
  return Object.keys(manifest.exports)
    .filter((key) => !key.endsWith('.json'))
    .map((key) => (key === '.' ? `@pagewise/${name}` : `@pagewise/${name}/${key.slice(2)}`));
}

export interface Bundle {
  readonly code: string;
  readonly bytes: number;
  /**
   * Every bundled module: the workspace packages' as `<package>/<path under src/>` (`core/errors.ts`,
   * `rest/views/list-view.ts`), others as esbuild names them.
   */
  readonly modules: readonly string[];
}

/**
 * Bundles `contents` the way an application bundler would for a runtime that is not Node
 * (esbuild, `platform: 'neutral'`: Node built-ins do not resolve, `sideEffects` is honoured),
 * from the workspace packages' sources. Rejects with esbuild's messages when something does not resolve.
 */
export async function bundle(
  contents: string,
  { minify = false, globalName }: { minify?: boolean; globalName?: string } = {},
): Promise<Bundle> {
  const result = await build({
    stdin: { contents, resolveDir: RESOLVE_DIR, loader: 'ts', sourcefile: ENTRY },
    bundle: true,
    write: false,
    metafile: true,
    // A global name makes a classic script (for a bare VM context); otherwise an ES module.
    ...(globalName ? { format: 'iife' as const, globalName } : { format: 'esm' as const }),
    platform: 'neutral',
    // The workspace's own condition for sources, when the exports map has one.
    conditions: ['@pagewise/source'],
    minify,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.text;
  const inputs = Object.values(result.metafile.outputs)[0]!.inputs;
  const modules = Object.keys(inputs)
    .filter((path) => !path.endsWith(ENTRY))
    .map((path) => {
      const at = path.indexOf(PACKAGES);
      return at === -1 || path.includes('node_modules')
        ? path
        : path.slice(at + PACKAGES.length).replace('/src/', '/');
    });
  return { code, bytes: new TextEncoder().encode(code).byteLength, modules };
}

/**
 * The free references to Node's `process` and `Buffer` in JavaScript text (the line of each).
 * Property reads such as `globalThis.process?.emitWarning` are not free references: they are
 * `undefined` where the runtime has no such global, instead of a `ReferenceError`.
 */
export function nodeGlobalReferences(code: string): string[] {
  const file = ts.createSourceFile('bundle.js', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && (node.text === 'process' || node.text === 'Buffer')) {
      const parent = node.parent;
      const isPropertyName =
        ((ts.isPropertyAccessExpression(parent) || ts.isPropertyAssignment(parent)) &&
          parent.name === node) ||
        (ts.isMethodDeclaration(parent) && parent.name === node);
      if (!isPropertyName) {
        const { line } = file.getLineAndCharacterOfPosition(node.getStart());
        found.push(`${node.text}: ${code.split('\n')[line]!.trim().slice(0, 160)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}
