import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, test } from 'vitest';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Type-checks every `ts` block of the README as its own module, under the workspace's strict
 * options and without Node's types, as a browser or worker user would compile it. The package
 * source is checked with them, so a `node:` import, `Buffer` or `process` in it fails here.
 */
test('README examples and the package source compile under strict, with DOM types only (no Node)', () => {
  const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
  expect(blocks.length).toBeGreaterThanOrEqual(5);

  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: [],
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    verbatimModuleSyntax: true,
    noEmit: true,
    skipLibCheck: true,
    paths: { '@pagewise/client': [join(packageDir, 'src/index.ts')] },
  };
  const files = new Map(blocks.map((code, index) => [join(packageDir, `readme-example-${index}.ts`), code]));
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (name) => files.get(name) ?? readFile(name);
  host.fileExists = (name) => files.has(name) || fileExists(name);
  host.getSourceFile = (name, languageVersion, ...rest) => {
    const code = files.get(name);
    return code === undefined
      ? getSourceFile(name, languageVersion, ...rest)
      : ts.createSourceFile(name, code, languageVersion, true);
  };
  const program = ts.createProgram([...files.keys()], options, host);
  const diagnostics = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const where = diagnostic.file?.fileName.replace(`${packageDir}/`, '') ?? '';
    return `${where}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
  });
  expect(diagnostics).toEqual([]);
});
