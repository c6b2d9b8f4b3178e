import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// No module-level mutable state in the adapter or in core: state that outlives a call belongs to
// an object someone holds (a paginator, a query, a `StatementCache`), never to the module, where
// two databases, two tests or two tenants would silently share it. Read from the syntax itself:
// a top-level `let`/`var`, a top-level collection that can be written (`new Map`, `new WeakMap`,
// `new Set`... not declared `ReadonlyMap`/`ReadonlySet`), and a class's writable `static` field.

const PACKAGES = fileURLToPath(new URL('../../packages/', import.meta.url));
const CHECKED = ['core/src', 'sql/src', 'kysely-adapter/src', 'drizzle-adapter/src', 'memory-adapter/src'];
const COLLECTIONS = new Set(['Map', 'WeakMap', 'Set', 'WeakSet', 'WeakRef']);
const READONLY_TYPES = /^(ReadonlyMap|ReadonlySet)\b/;
/**
 * The one module-level memo allowed, named with why: a memo of a pure function, holding nothing of
 * a request, a database or a tenant. HKDF of a key's text is the same CryptoKey in every process
 * (tokens outlive deploys), and a page function, handed its options anew on each call, has no
 * object of its own to keep it on; without it each key would be derived per token. Bounded (64).
 */
const PURE_MEMOS = new Set(['core/src/cursor/cursor-encryption.ts: top-level writable Map derived']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The module-level mutable state of one source text, as `line: what` strings. */
function moduleState(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node, what: string) =>
    found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${what}`);
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement)) {
      const flags = statement.declarationList.flags;
      const constant = (flags & ts.NodeFlags.Const) !== 0;
      for (const declaration of statement.declarationList.declarations) {
        const name = declaration.name.getText(source);
        if (!constant) {
          at(declaration, `top-level ${flags & ts.NodeFlags.Let ? 'let' : 'var'} ${name}`);
          continue;
        }
        const init = declaration.initializer;
        const declared = declaration.type?.getText(source) ?? '';
        if (
          init &&
          ts.isNewExpression(init) &&
          ts.isIdentifier(init.expression) &&
          COLLECTIONS.has(init.expression.text) &&
          !READONLY_TYPES.test(declared)
        ) {
          at(declaration, `top-level writable ${init.expression.text} ${name}`);
        }
      }
    }
    if (ts.isClassDeclaration(statement)) {
      for (const member of statement.members) {
        const modifiers = ts.canHaveModifiers(member) ? (ts.getModifiers(member) ?? []) : [];
        const isStatic = modifiers.some((m) => m.kind === ts.SyntaxKind.StaticKeyword);
        const readonly = modifiers.some((m) => m.kind === ts.SyntaxKind.ReadonlyKeyword);
        if (isStatic && ts.isPropertyDeclaration(member) && !readonly) {
          at(member, `writable static ${statement.name?.text ?? 'class'}.${member.name.getText(source)}`);
        }
      }
    }
  }
  return found;
}

describe('no module-level mutable state in core or the adapters', () => {
  it('the checker finds a top-level let, a writable collection and a writable static', () => {
    const text = [
      'let count = 0;',
      'const caches = new WeakMap<object, number>();',
      'const names: ReadonlySet<string> = new Set(["a"]);',
      'const encoder = new TextEncoder();',
      'export class A { static last = 1; static readonly first = 0; }',
      'function f() { let local = 1; const m = new Map(); return [local, m]; }',
    ].join('\n');
    expect(moduleState('x.ts', text)).toEqual([
      'x.ts:1: top-level let count',
      'x.ts:2: top-level writable WeakMap caches',
      'x.ts:5: writable static A.last',
    ]);
  });

  it.each(CHECKED)('packages/%s declares none', (folder) => {
    const dir = join(PACKAGES, folder);
    const files = sourceFiles(dir);
    expect(files.length).toBeGreaterThan(0);
    const found = files
      .flatMap((path) =>
        moduleState(relative(PACKAGES, path).split('\\').join('/'), readFileSync(path, 'utf8')),
      )
      .filter((what) => !PURE_MEMOS.has(what.replace(/:\d+:/, ':')));
    expect(found).toEqual([]);
  });
});

// No file-level import cycles anywhere in packages/*/src, whatever the package (core, the web
// layer, the adapters, the client, and any package added later). Type-only imports count: a
// cycle through types still ties two files together for a reader. Imports are read from the
// text itself (`ts.preProcessFile`); a workspace package's name (`@pagewise/core`, a subpath)
// resolves through its `exports` to the source file the `@pagewise/source` condition names,
// so a cycle between two packages is found too.

/** What a package's `exports` resolve to: subpath (`.`, `./hono`) to a file under packages/. */
type PackageEntries = ReadonlyMap<string, ReadonlyMap<string, string>>;

function packageEntries(): PackageEntries {
  const entries = new Map<string, Map<string, string>>();
  for (const entry of readdirSync(PACKAGES, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const manifest = JSON.parse(readFileSync(join(PACKAGES, entry.name, 'package.json'), 'utf8')) as {
      name: string;
      exports?: Record<string, string | Record<string, string>>;
    };
    const subpaths = new Map<string, string>();
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      const source = typeof target === 'string' ? target : target['@pagewise/source'];
      if (source !== undefined) subpaths.set(subpath, posix.join(entry.name, source));
    }
    entries.set(manifest.name, subpaths);
  }
  return entries;
}

/** The file an import names, relative to packages/; `undefined` for a module outside the workspace. */
function importTarget(file: string, specifier: string, packages: PackageEntries): string | undefined {
  if (specifier.startsWith('.')) {
    return posix.normalize(posix.join(posix.dirname(file), specifier)).replace(/\.js$/, '.ts');
  }
  const [scope = '', name = '', ...rest] = specifier.split('/');
  const subpaths = packages.get(scope.startsWith('@') ? `${scope}/${name}` : scope);
  if (subpaths === undefined) return undefined;
  const subpath = scope.startsWith('@') ? rest : [name, ...rest];
  return subpaths.get(['.', ...subpath].join('/')) ?? `${specifier} (not exported)`;
}

/**
 * File-to-file import edges (`from -> to` for the failure message) of `files` (path under
 * packages/ to text), and the imports that name no file of `files`: the checker must see every
 * edge between workspace files, or it would miss cycles.
 */
function fileEdges(
  files: ReadonlyMap<string, string>,
  packages: PackageEntries,
): { edges: Map<string, Set<string>>; unresolved: string[] } {
  const edges = new Map<string, Set<string>>();
  const unresolved: string[] = [];
  for (const [file, text] of files) {
    const targets = new Set<string>();
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      const target = importTarget(file, fileName, packages);
      if (target === undefined) continue;
      if (files.has(target)) targets.add(target);
      else unresolved.push(`${file} -> ${fileName}`);
    }
    edges.set(file, targets);
  }
  return { edges, unresolved };
}

/**
 * The import cycles among files (Tarjan's strongly connected components of more than one file,
 * or a file importing itself): each the group's files sorted, then the imports inside it.
 */
function fileCycles(edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of edges.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length === 1 && !edges.get(file)?.has(file)) return;
    const inside = group.flatMap((from) =>
      [...(edges.get(from) ?? [])].filter((to) => group.includes(to)).map((to) => `${from} -> ${to}`),
    );
    cycles.push([...group.sort(), ...inside.sort()]);
  };
  for (const file of edges.keys()) if (!index.has(file)) visit(file);
  return cycles.sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
}

function workspaceSources(): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(PACKAGES, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const src = join(PACKAGES, entry.name, 'src');
    for (const path of sourceFiles(src)) {
      files.set(relative(PACKAGES, path).split('\\').join('/'), readFileSync(path, 'utf8'));
    }
  }
  return files;
}

describe('no file-level import cycles in packages/*/src', () => {
  it('the checker finds a cycle through type-only imports and one between two packages', () => {
    const packages: PackageEntries = new Map([
      ['@pagewise/core', new Map([['.', 'core/src/index.ts']])],
      ['@pagewise/rest', new Map([['./hono', 'rest/src/hono.ts']])],
    ]);
    const files = new Map([
      ['a/src/codec.ts', "import type { Info } from './capabilities.js';\nimport { sql } from 'kysely';"],
      ['a/src/capabilities.ts', "export { recorded } from './nested/recorded.js';"],
      ['a/src/nested/recorded.ts', "import { clock } from '../codec.js';"],
      ['a/src/leaf.ts', "import { clock } from './codec.js';"],
      ['a/src/self.ts', "import type { Self } from './self.js';"],
      ['core/src/index.ts', "export * from './engine.js';"],
      ['core/src/engine.ts', "const hono = await import('@pagewise/rest/hono');"],
      [
        'rest/src/hono.ts',
        "import { engine } from '@pagewise/core';\nimport { x } from '@pagewise/rest/gone';",
      ],
    ]);
    const { edges, unresolved } = fileEdges(files, packages);
    expect(unresolved).toEqual(['rest/src/hono.ts -> @pagewise/rest/gone']);
    expect(fileCycles(edges)).toEqual([
      [
        'a/src/capabilities.ts',
        'a/src/codec.ts',
        'a/src/nested/recorded.ts',
        'a/src/capabilities.ts -> a/src/nested/recorded.ts',
        'a/src/codec.ts -> a/src/capabilities.ts',
        'a/src/nested/recorded.ts -> a/src/codec.ts',
      ],
      ['a/src/self.ts', 'a/src/self.ts -> a/src/self.ts'],
      [
        'core/src/engine.ts',
        'core/src/index.ts',
        'rest/src/hono.ts',
        'core/src/engine.ts -> rest/src/hono.ts',
        'core/src/index.ts -> core/src/engine.ts',
        'rest/src/hono.ts -> core/src/index.ts',
      ],
    ]);
  });

  it('every package: no file imports itself back, directly or around a loop', () => {
    const { edges, unresolved } = fileEdges(workspaceSources(), packageEntries());
    expect(edges.size).toBeGreaterThan(50);
    expect(unresolved).toEqual([]);
    expect(fileCycles(edges)).toEqual([]);
  });
});
