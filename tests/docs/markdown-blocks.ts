import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

// Compiles the ```ts blocks of Markdown pages the way a reader meets them: top to bottom, one page
// at a time, with nothing given but what the page writes.
//
// Each block is a module of its own (two blocks may each declare an `app`), compiled under `strict`
// against the packages' sources. A block may use a name only when it declares or imports it, or
// when an earlier ts block of the same page does: the harness exports every top-level name of each
// block, and gives a later block of the page an import of each name it mentions but does not bind,
// from the last earlier block that binds it. Nothing else is supplied: no global context file, no
// automatic imports (Pagewise names, like Hono's or Kysely's, come from import statements in the
// page), and no browser globals (`name`, `status`, `origin`: lib.dom's own variables, which a
// server reader does not have), so a name defined on another page, or later on this one, fails
// with TS2304 "Cannot find name". The generated imports and exports go after the block's own
// lines, so line numbers map 1:1 to the Markdown file.

const HERE = fileURLToPath(new URL('.', import.meta.url));

export interface Block {
  /** The Markdown file, relative to the repository root. */
  readonly file: string;
  /** The heading the block sits under. */
  readonly section: string;
  /** 1-based line of the block's first code line in the Markdown file. */
  readonly line: number;
  readonly code: string;
}

/** Every Markdown file under `dir`, skipping dot folders, `node_modules` and `dist`. */
export function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.') || entry.name === 'node_modules' || entry.name === 'dist') return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/** The ```ts (or ```typescript) blocks of a Markdown text, in page order. */
export function blocksOf(file: string, text: string): Block[] {
  const lines = text.split('\n');
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

/** The blocks of every Markdown file under `root`, files relative to it. */
export function repositoryBlocks(root: string): Block[] {
  return markdownFiles(root).flatMap((path) => blocksOf(relative(root, path), readFileSync(path, 'utf8')));
}

export const compilerOptions: ts.CompilerOptions = {
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

interface Names {
  /** Names the block declares or imports at its top level. */
  readonly bound: ReadonlySet<string>;
  /** The bound names the block exports itself (`export const`, `export { x }`). */
  readonly exported: ReadonlySet<string>;
  /** Every identifier the block mentions. */
  readonly mentioned: ReadonlySet<string>;
}

function namesOf(code: string): Names {
  const source = ts.createSourceFile('block.ts', code, ts.ScriptTarget.ES2022, true);
  const bound = new Set<string>();
  const exported = new Set<string>();
  const bind = (name: ts.BindingName | undefined, isExported: boolean) => {
    if (!name) return;
    if (ts.isIdentifier(name)) {
      bound.add(name.text);
      if (isExported) exported.add(name.text);
    } else {
      for (const element of name.elements) {
        if (!ts.isOmittedExpression(element)) bind(element.name, isExported);
      }
    }
  };
  const isExported = (node: ts.Node) =>
    ts.canHaveModifiers(node) &&
    (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (clause?.name) bound.add(clause.name.text);
      const named = clause?.namedBindings;
      if (named && ts.isNamespaceImport(named)) bound.add(named.name.text);
      if (named && ts.isNamedImports(named))
        for (const element of named.elements) bound.add(element.name.text);
    } else if (ts.isImportEqualsDeclaration(statement)) {
      bound.add(statement.name.text);
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        bind(declaration.name, isExported(statement));
      }
    } else if (
      (ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isEnumDeclaration(statement) ||
        (ts.isModuleDeclaration(statement) && ts.isIdentifier(statement.name))) &&
      statement.name
    ) {
      bound.add(statement.name.text);
      if (isExported(statement)) exported.add(statement.name.text);
    } else if (
      ts.isExportDeclaration(statement) &&
      !statement.moduleSpecifier &&
      statement.exportClause &&
      ts.isNamedExports(statement.exportClause)
    ) {
      for (const element of statement.exportClause.elements) exported.add(element.name.text);
    }
  }
  const mentioned = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) mentioned.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { bound, exported, mentioned };
}

function moduleName(page: number, block: number): string {
  return `__docs_${page}_${block}__`;
}

/**
 * The blocks of one page as modules: each block's code, then an import of every name it mentions
 * without binding it from the last earlier block that binds it, then an export of every name it binds.
 */
function pageModules(blocks: readonly Block[], page: number): string[] {
  const names = blocks.map((block) => namesOf(block.code));
  return blocks.map((block, i) => {
    const own = names[i]!;
    const from = new Map<number, string[]>();
    for (const name of own.mentioned) {
      if (own.bound.has(name)) continue;
      for (let k = i - 1; k >= 0; k -= 1) {
        if (names[k]!.bound.has(name)) {
          from.set(k, [...(from.get(k) ?? []), name]);
          break;
        }
      }
    }
    const imports = [...from].map(
      ([k, list]) => `import { ${list.join(', ')} } from './${moduleName(page, k)}.js';`,
    );
    const exports = [...own.bound].filter((name) => !own.exported.has(name));
    return `${block.code}\n${imports.join('\n')}\nexport { ${exports.join(', ')} };\n`;
  });
}

function virtualHost(files: ReadonlyMap<string, string>, options = compilerOptions): ts.CompilerHost {
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

/** Whether a default library file is one of lib.dom's, whose globals a server reader lacks. */
function isDomLibrary(program: ts.Program, file: ts.SourceFile): boolean {
  return program.isSourceFileDefaultLibrary(file) && /^lib\.dom(\.|$)/.test(basename(file.fileName));
}

/**
 * Uses of a global variable or function that only lib.dom declares (`name`, `status`, `origin`,
 * `document`): a browser's, which would let an undefined name compile. Globals Node declares too
 * (`fetch`, `Response`, `URL`) are the reader's on either runtime.
 */
function browserGlobals(program: ts.Program, source: ts.SourceFile): ts.Diagnostic[] {
  const checker = program.getTypeChecker();
  const found: ts.Diagnostic[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) {
      const symbol = checker.getSymbolAtLocation(node);
      const declarations = symbol?.declarations ?? [];
      if (
        symbol !== undefined &&
        symbol.flags & (ts.SymbolFlags.Variable | ts.SymbolFlags.Function) &&
        declarations.length > 0 &&
        declarations.every(
          (d) =>
            isDomLibrary(program, d.getSourceFile()) &&
            (ts.isFunctionDeclaration(d) ||
              (ts.isVariableDeclaration(d) && ts.isSourceFile(d.parent.parent.parent))),
        )
      ) {
        found.push({
          category: ts.DiagnosticCategory.Error,
          code: 2304,
          file: source,
          start: node.getStart(source),
          length: node.getWidth(source),
          messageText: `Cannot find name '${node.text}' (only a browser global in lib.dom declares it): declare it on this page.`,
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Diagnostics with positions in the Markdown file. */
function format(diagnostics: readonly ts.Diagnostic[], block: Block): string {
  return diagnostics
    .map((d) => {
      const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
      if (!d.file || d.start === undefined) return `TS${d.code}: ${message}`;
      const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
      const lines = block.code.split('\n').length;
      // The generated imports and exports sit after the block: name its last line.
      const at = line < lines ? `${block.line + line}:${character + 1}` : `${block.line + lines - 1}`;
      return `${block.file}:${at} TS${d.code}: ${message}`;
    })
    .join('\n');
}

/**
 * Compiles the blocks, page by page (a page is the blocks of one `file`, in the order given), in
 * one program; answers each block's errors, `[]` for a block that compiles.
 */
export function compileBlocks(
  blocks: readonly Block[],
  options: ts.CompilerOptions = compilerOptions,
): Map<Block, string[]> {
  const pages = new Map<string, Block[]>();
  for (const block of blocks) pages.set(block.file, [...(pages.get(block.file) ?? []), block]);
  const files = new Map<string, string>();
  const fileOf = new Map<Block, string>();
  [...pages.values()].forEach((page, p) => {
    const modules = pageModules(page, p);
    page.forEach((block, i) => {
      const name = join(HERE, `${moduleName(p, i)}.ts`);
      files.set(name, modules[i]!);
      fileOf.set(block, name);
    });
  });
  const program = ts.createProgram([...files.keys()], options, virtualHost(files, options));
  const errors = new Map<Block, string[]>();
  for (const block of blocks) {
    const source = program.getSourceFile(fileOf.get(block)!)!;
    const diagnostics = [...ts.getPreEmitDiagnostics(program, source), ...browserGlobals(program, source)];
    errors.set(block, diagnostics.length > 0 ? [format(diagnostics, block)] : []);
  }
  return errors;
}
