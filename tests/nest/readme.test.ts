// packages/nest/README.md's ```ts blocks are code a reader pastes into a Nest app: each compiles as
// its own module under `strict` with Nest's decorators (experimentalDecorators, no
// emitDecoratorMetadata), against the packages' sources and the README globals of
// tests/docs/readme-context.d.ts (`db`, ...). tests/docs compiles every other README without
// decorators; this one is left to this file.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HERE = fileURLToPath(new URL('.', import.meta.url));
const README = join(ROOT, 'packages', 'nest', 'README.md');

const options: ts.CompilerOptions = {
  strict: true,
  exactOptionalPropertyTypes: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  types: ['node'],
  customConditions: ['@pagewise/source'],
  experimentalDecorators: true,
  skipLibCheck: true,
  noEmit: true,
};

/** The ```ts blocks with the 1-based line of their first code line. */
function blocks(): Array<{ line: number; code: string }> {
  const lines = readFileSync(README, 'utf8').split('\n');
  const found: Array<{ line: number; code: string }> = [];
  for (let i = 0; i < lines.length; i += 1) {
    if (!/^```ts\s*$/.test(lines[i]!)) continue;
    const start = i + 1;
    while (i + 1 < lines.length && !/^```\s*$/.test(lines[++i]!)) {}
    found.push({ line: start + 1, code: lines.slice(start, i).join('\n') });
  }
  return found;
}

test('every ts block of packages/nest/README.md compiles', () => {
  const found = blocks();
  expect(found.length).toBeGreaterThanOrEqual(5);
  const files = new Map(
    found.map((block, i) => [join(HERE, `__readme_${i}__.ts`), `${block.code}\nexport {};\n`]),
  );
  const host = ts.createCompilerHost(options, true);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (name) => files.has(name) || fileExists.call(host, name);
  host.readFile = (name) => files.get(name) ?? readFile.call(host, name);
  host.getSourceFile = (name, language, ...rest) => {
    const text = files.get(name);
    return text === undefined
      ? getSourceFile.call(host, name, language, ...rest)
      : ts.createSourceFile(name, text, language, true);
  };
  const context = join(ROOT, 'tests', 'docs', 'readme-context.d.ts');
  const program = ts.createProgram([context, ...files.keys()], options, host);
  const errors = [...files.keys()].flatMap((name, i) =>
    ts.getPreEmitDiagnostics(program, program.getSourceFile(name)).map((d) => {
      const { line } = d.file!.getLineAndCharacterOfPosition(d.start ?? 0);
      return `packages/nest/README.md:${found[i]!.line + line} TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    }),
  );
  expect(errors).toEqual([]);
}, 120_000);
