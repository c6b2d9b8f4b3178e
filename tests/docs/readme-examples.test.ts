// README examples are code: each block marked `<!-- readme-check: NAME -->` is type-checked
// under the workspace's strict options, as a module of this folder (so imports resolve as here).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/<!-- readme-check: ([\w-]+) -->\n```ts\n([\s\S]*?)\n```/g)].map(
  ([, name, code]) => ({ name: name!, code: code! }),
);

/** A broken block, to show that the check can fail. */
const CONTROL = {
  name: 'control',
  code: "import { ModelViewSet } from '@pagewise/core';\nexport const x: number = ModelViewSet;",
};

/** Diagnostics per block, all blocks in one program (creating one costs seconds). */
function diagnoseAll(files: ReadonlyArray<{ name: string; code: string }>): Map<string, string[]> {
  const config = ts.readConfigFile(join(root, 'tsconfig.base.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const paths = new Map(files.map((f) => [join(here, `readme-${f.name}.generated.ts`), f] as const));
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (path, language, ...rest) => {
    const virtual = paths.get(path);
    return virtual
      ? ts.createSourceFile(path, virtual.code, language)
      : getSourceFile(path, language, ...rest);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (path) => paths.has(path) || fileExists(path);
  const program = ts.createProgram([...paths.keys()], options, host);
  const result = new Map(files.map((f) => [f.name, [] as string[]]));
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const name = d.file ? paths.get(d.file.fileName)?.name : 'global';
    if (name !== undefined) result.get(name)?.push(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  }
  return result;
}

describe('README examples', () => {
  let diagnostics: Map<string, string[]>;

  it('has the marked blocks, and a broken block fails the check', () => {
    expect(blocks.map((b) => b.name)).toContain('viewsets');
    diagnostics = diagnoseAll([...blocks, CONTROL]);
    expect(diagnostics.get('control')!.join()).toMatch(/not assignable to type 'number'/);
  }, 120_000);

  for (const { name } of blocks) {
    it(`"${name}" compiles under strict`, () => {
      expect(diagnostics.get(name)).toEqual([]);
    });
  }
});
