import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// No module-level mutable state in the adapter or in core: state that outlives a call belongs to
// an object someone holds (a paginator, a query, a `StatementCache`), never to the module, where
// two databases, two tests or two tenants would silently share it. Read from the syntax itself:
// a top-level `let`/`var`, a top-level collection that can be written (`new Map`, `new WeakMap`,
// `new Set`... not declared `ReadonlyMap`/`ReadonlySet`), and a class's writable `static` field.

const PACKAGES = fileURLToPath(new URL('../../packages/', import.meta.url));
const CHECKED = ['core/src', 'kysely-adapter/src', 'memory-adapter/src'];
const COLLECTIONS = new Set(['Map', 'WeakMap', 'Set', 'WeakSet', 'WeakRef']);
const READONLY_TYPES = /^(ReadonlyMap|ReadonlySet)\b/;

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
    const found = files.flatMap((path) =>
      moduleState(relative(PACKAGES, path).split('\\').join('/'), readFileSync(path, 'utf8')),
    );
    expect(found).toEqual([]);
  });
});
