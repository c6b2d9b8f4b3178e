import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

// Every ```ts block of every Markdown file is code a reader will paste: each is compiled as its own
// module under `strict` against the packages' sources, with the globals of readme-context.d.ts and
// the Pagewise names it uses imported for it (like Kysely's test:jsdocs).

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HERE = fileURLToPath(new URL('.', import.meta.url));
const PACKAGES = [
  '@pagewise/core',
  '@pagewise/rest',
  '@pagewise/kysely-adapter',
  '@pagewise/memory-adapter',
  '@pagewise/client',
];

/**
 * Blocks that do not compile yet, by "file#section", with the reason. Each runs as `test.fails`,
 * so the day it compiles the test says to take it off this list.
 */
const KNOWN_FAILING: Readonly<Record<string, string>> = {};

interface Block {
  readonly file: string;
  readonly section: string;
  /** 1-based line of the block's first code line in the Markdown file. */
  readonly line: number;
  readonly code: string;
}

/**
 * Markdown compiled elsewhere, under other options: Nest code uses TypeScript's legacy decorators
 * (tests/nest/readme.test.ts).
 */
const COMPILED_ELSEWHERE = new Set([join(ROOT, 'packages', 'nest', 'README.md')]);

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.') || entry.name === 'node_modules' || entry.name === 'dist') return [];
    const path = join(dir, entry.name);
    if (COMPILED_ELSEWHERE.has(path)) return [];
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

function blocksOf(path: string): Block[] {
  const file = relative(ROOT, path);
  const lines = readFileSync(path, 'utf8').split('\n');
  const blocks: Block[] = [];
  let section = '';
  for (let i = 0; i < lines.length; i += 1) {
    const heading = /^#+\s+(.*)$/.exec(lines[i]!);
    if (heading) section = heading[1]!.replace(/`/g, '');
    const fence = /^(\s*)```\s*(ts|typescript)\s*$/.exec(lines[i]!);
    if (fence === null && /^\s*```/.test(lines[i]!)) {
      // Skips other fenced blocks whole, so a "# comment" inside them is no heading.
      while (i + 1 < lines.length && !/^\s*```\s*$/.test(lines[++i]!)) {}
      continue;
    }
    if (fence === null) continue;
    const start = i + 1;
    while (i + 1 < lines.length && !/^\s*```\s*$/.test(lines[++i]!)) {}
    blocks.push({ file, section, line: start + 1, code: lines.slice(start, i).join('\n') });
  }
  return blocks;
}

const blocks = markdownFiles(ROOT).flatMap(blocksOf);

const options: ts.CompilerOptions = {
  strict: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  types: ['node'],
  customConditions: ['@pagewise/source'],
  skipLibCheck: true,
  noEmit: true,
};

/** The names each package exports, read from its entry point by the checker. */
function exportedNames(): Map<string, string> {
  const probe = join(HERE, '__exports__.ts');
  const text = PACKAGES.map((name, i) => `export * as p${i} from '${name}';`).join('\n');
  const host = virtualHost(new Map([[probe, text]]));
  const program = ts.createProgram([probe], options, host);
  const checker = program.getTypeChecker();
  const names = new Map<string, string>();
  const source = program.getSourceFile(probe)!;
  source.statements.forEach((statement, i) => {
    const specifier = (statement as ts.ExportDeclaration).moduleSpecifier!;
    const module = checker.getSymbolAtLocation(specifier);
    if (!module) throw new Error(`cannot resolve ${PACKAGES[i]}`);
    for (const symbol of checker.getExportsOfModule(module)) {
      if (!names.has(symbol.name)) names.set(symbol.name, PACKAGES[i]!);
    }
  });
  return names;
}

function virtualHost(files: ReadonlyMap<string, string>): ts.CompilerHost {
  const host = ts.createCompilerHost(options, true);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (name) => files.has(name) || fileExists.call(host, name);
  host.readFile = (name) => files.get(name) ?? readFile.call(host, name);
  host.getSourceFile = (name, language, ...rest) => {
    const text = files.get(name);
    return text === undefined
      ? getSourceFile.call(host, name, language, ...rest)
      : ts.createSourceFile(name, text, language, true);
  };
  return host;
}

/** Names a block imports or declares at its top level, and every identifier it mentions. */
function namesOf(code: string): { bound: Set<string>; mentioned: Set<string> } {
  const source = ts.createSourceFile('block.ts', code, ts.ScriptTarget.ES2022, true);
  const bound = new Set<string>();
  const bind = (name: ts.BindingName | undefined) => {
    if (!name) return;
    if (ts.isIdentifier(name)) bound.add(name.text);
    else for (const element of name.elements) if (!ts.isOmittedExpression(element)) bind(element.name);
  };
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (clause?.name) bound.add(clause.name.text);
      const named = clause?.namedBindings;
      if (named && ts.isNamespaceImport(named)) bound.add(named.name.text);
      if (named && ts.isNamedImports(named))
        for (const element of named.elements) bound.add(element.name.text);
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) bind(declaration.name);
    } else if (
      (ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isEnumDeclaration(statement)) &&
      statement.name
    ) {
      bound.add(statement.name.text);
    }
  }
  const mentioned = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) mentioned.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { bound, mentioned };
}

/** The block as a module: its own lines first (so line numbers map 1:1), the imports it needs last. */
function moduleOf(block: Block, exported: ReadonlyMap<string, string>): string {
  const { bound, mentioned } = namesOf(block.code);
  const byPackage = new Map<string, string[]>();
  for (const name of mentioned) {
    const from = exported.get(name);
    if (from === undefined || bound.has(name)) continue;
    byPackage.set(from, [...(byPackage.get(from) ?? []), name]);
  }
  const imports = [...byPackage].map(([from, names]) => `import { ${names.join(', ')} } from '${from}';`);
  return `${block.code}\n${imports.join('\n')}\nexport {};\n`;
}

function compile(): Map<Block, string[]> {
  const exported = exportedNames();
  const files = new Map<string, string>();
  const fileOf = new Map<Block, string>();
  blocks.forEach((block, i) => {
    const name = join(HERE, `__readme_${i}__.ts`);
    files.set(name, moduleOf(block, exported));
    fileOf.set(block, name);
  });
  const context = join(HERE, 'readme-context.d.ts');
  const program = ts.createProgram([context, ...files.keys()], options, virtualHost(files));
  const errors = new Map<Block, string[]>();
  const contextErrors = ts.getPreEmitDiagnostics(program, program.getSourceFile(context));
  if (contextErrors.length > 0) throw new Error(format(contextErrors, null));
  for (const block of blocks) {
    const source = program.getSourceFile(fileOf.get(block)!)!;
    const diagnostics = ts.getPreEmitDiagnostics(program, source);
    errors.set(block, diagnostics.length ? [format(diagnostics, block)] : []);
  }
  return errors;
}

/** Diagnostics with positions in the Markdown file. */
function format(diagnostics: readonly ts.Diagnostic[], block: Block | null): string {
  return diagnostics
    .map((d) => {
      const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
      if (!d.file || d.start === undefined) return `TS${d.code}: ${message}`;
      const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
      const where = block
        ? `${block.file}:${block.line + line}:${character + 1}`
        : `${d.file.fileName}:${line + 1}`;
      return `${where} TS${d.code}: ${message}`;
    })
    .join('\n');
}

describe('README examples compile under strict', () => {
  test('the Markdown files hold TypeScript examples', () => {
    const files = new Set(blocks.map((b) => b.file));
    expect(files).toContain('README.md');
    for (const name of ['core', 'kysely-adapter', 'memory-adapter', 'client']) {
      const readme = join('packages', name, 'README.md');
      expect(existsSync(join(ROOT, readme))).toBe(true);
      expect(files).toContain(readme);
    }
  });

  let errors: Map<Block, string[]> | undefined;
  const errorsOf = (block: Block) => {
    errors ??= compile();
    return errors.get(block)!;
  };

  for (const block of blocks) {
    const key = `${block.file}#${block.section}`;
    const name = `${block.file}:${block.line} (${block.section})`;
    if (KNOWN_FAILING[key]) {
      test.fails(`${name}, known to fail: ${KNOWN_FAILING[key]}`, () => {
        const found = errorsOf(block);
        console.log(`${name} still fails, as known:\n${found.join('\n')}`);
        expect(found).toEqual([]);
      }, 120_000);
    } else {
      test(name, () => {
        expect(errorsOf(block)).toEqual([]);
      }, 120_000);
    }
  }
});
