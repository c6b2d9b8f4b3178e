// The figures the engine/web split is measured by, each read from the tree as it stands:
//
//   pnpm exec tsx tests/support/structure-figures.ts
//
// public names per entry point (values and types, from each `exports` entry's source), lines of
// source per package (no tests), the cursor engine bundled alone (esbuild, minified, the modules
// it pulls in), and the sizes of the README and docs/.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
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
