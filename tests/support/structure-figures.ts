// The figures the engine/web split is measured by, each read from the tree as it stands:
//
//   pnpm exec tsx tests/support/structure-figures.ts
//
// public names per entry point (values and types, from each `exports` entry's source), lines of
// source per package (no tests) and per folder of packages/sql, each package's import floors (a
// file stands one floor above everything it imports in its package; files that import nothing of
// their package are floor 1), the longest files and classes, the cursor engine bundled alone
// (esbuild, minified, the modules it pulls in), and the sizes of the README and docs/.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { bundle } from './bundle.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const packages = readdirSync(join(ROOT, 'packages')).filter((name) =>
  existsSync(join(ROOT, 'packages', name, 'package.json')),
);

// Entry points: every `exports` key with a `@pagewise/source` file.
const entries: Array<{ specifier: string; file: string }> = [];
for (const name of packages) {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'packages', name, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, unknown>;
  };
  for (const [key, target] of Object.entries(manifest.exports)) {
    const source = (target as Record<string, string> | string)?.['@pagewise/source' as never] as unknown;
    if (typeof source !== 'string') continue;
    entries.push({
      specifier: key === '.' ? manifest.name : `${manifest.name}/${key.slice(2)}`,
      file: join(ROOT, 'packages', name, source),
    });
  }
}
const program = ts.createProgram(
  entries.map((e) => e.file),
  {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    customConditions: ['@pagewise/source'],
    allowImportingTsExtensions: false,
    noEmit: true,
  },
);
const checker = program.getTypeChecker();
console.log('public names per entry point (values + types)');
for (const { specifier, file } of entries) {
  const source = program.getSourceFile(file);
  const symbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
  const names = symbol === undefined ? [] : checker.getExportsOfModule(symbol);
  let values = 0;
  for (const name of names) {
    const target = name.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(name) : name;
    if (target.flags & ts.SymbolFlags.Value) values += 1;
  }
  console.log(`  ${specifier}: ${names.length} (${values} values)`);
}

console.log('lines of source per package (no tests)');
for (const name of packages) {
  const files = sources(join(ROOT, 'packages', name, 'src'));
  const lines = files.reduce((n, file) => n + readFileSync(file, 'utf8').split('\n').length - 1, 0);
  console.log(`  packages/${name}: ${lines} lines in ${files.length} files`);
}
const lineCount = (file: string) => readFileSync(file, 'utf8').split('\n').length - 1;

console.log('lines of packages/sql per folder (no tests)');
const sqlSrc = join(ROOT, 'packages', 'sql', 'src');
const byFolder = new Map<string, { lines: number; files: number }>();
for (const file of existsSync(sqlSrc) ? sources(sqlSrc) : []) {
  const folder = relative(sqlSrc, dirname(file)) || '.';
  const known = byFolder.get(folder) ?? { lines: 0, files: 0 };
  byFolder.set(folder, { lines: known.lines + lineCount(file), files: known.files + 1 });
}
for (const [folder, { lines, files }] of [...byFolder].sort()) {
  console.log(`  ${folder}/: ${lines} lines in ${files} files`);
}

/** The import floors of one package: the longest chain of its files importing each other, plus one. */
function floors(name: string): number {
  const src = join(ROOT, 'packages', name, 'src');
  const files = new Set(sources(src));
  const imports = new Map<string, string[]>();
  for (const file of files) {
    const targets = ts
      .preProcessFile(readFileSync(file, 'utf8'), true, true)
      .importedFiles.map((i) => i.fileName)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => resolve(dirname(file), specifier).replace(/\.js$/, '.ts'))
      .filter((target) => files.has(target));
    imports.set(file, targets);
  }
  const floor = new Map<string, number>();
  const visit = (file: string, path: Set<string>): number => {
    const known = floor.get(file);
    if (known !== undefined) return known;
    // A cycle (none should be: tests/core/structure.test.ts) counts as one floor.
    if (path.has(file)) return 0;
    path.add(file);
    const below = Math.max(0, ...(imports.get(file) ?? []).map((target) => visit(target, path)));
    path.delete(file);
    floor.set(file, below + 1);
    return below + 1;
  };
  return Math.max(0, ...[...files].map((file) => visit(file, new Set())));
}
console.log('import floors per package (the longest chain of its own files)');
for (const name of packages) console.log(`  packages/${name}: ${floors(name)} floors`);

const all = packages.flatMap((name) => sources(join(ROOT, 'packages', name, 'src')));
console.log('the longest files (no tests)');
for (const file of [...all].sort((a, b) => lineCount(b) - lineCount(a)).slice(0, 6)) {
  console.log(`  ${relative(ROOT, file)}: ${lineCount(file)} lines`);
}
console.log('the longest classes');
const classes = all.flatMap((file) => {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  return source.statements.filter(ts.isClassDeclaration).map((node) => {
    const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
    const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
    return { name: `${relative(ROOT, file)} ${node.name?.text ?? '(anonymous)'}`, lines: end - start + 1 };
  });
});
for (const { name, lines } of classes.sort((a, b) => b.lines - a.lines).slice(0, 6)) {
  console.log(`  ${name}: ${lines} lines`);
}

const bench = sources(join(ROOT, 'bench', 'src'));
console.log(
  `  bench/src: ${bench.reduce((n, file) => n + readFileSync(file, 'utf8').split('\n').length - 1, 0)} lines in ${bench.length} files`,
);

const engine = await bundle(
  "export { cursorPage, paginateCursor, streamRows, connectionFromQuery } from '@pagewise/core';",
  { minify: true },
).catch(() =>
  bundle("export { paginateCursor, streamRows, connectionFromQuery } from '@pagewise/core';", {
    minify: true,
  }),
);
const web = engine.modules.filter((m) =>
  /^(request|html|http|openapi|views|routes|bindings|versioning)\//.test(m),
);
console.log(
  `cursor engine bundled alone (esbuild, minified): ${engine.bytes} bytes, ${engine.modules.length} modules, web modules: ${web.length === 0 ? 'none' : web.join(', ')}`,
);

const docs = existsSync(join(ROOT, 'docs'))
  ? readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md'))
  : [];
console.log(`README.md: ${statSync(join(ROOT, 'README.md')).size} bytes`);
for (const file of docs) console.log(`  docs/${file}: ${statSync(join(ROOT, 'docs', file)).size} bytes`);
