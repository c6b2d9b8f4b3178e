import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The packages' layering, checked from the import statements themselves (type-only imports
// included: a cycle through types still ties two rooms together for a reader). Packages: the engine
// (@pagewise/core) imports no other package; DRF's web layer (@pagewise/rest), the SQL knowledge
// (@pagewise/sql) and the memory adapter stand on the engine alone; the ORM adapters on the engine
// and the SQL knowledge; the client stands apart. @pagewise/sql imports no ORM, in its tests either. Inside a package a "room" is a folder of its
// src/; a file directly in src/ (errors.ts, settings.ts, index.ts) is a room of its own.

const PACKAGES = fileURLToPath(new URL('../../packages/', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

function roomOf(file: string): string {
  const slash = file.indexOf('/');
  return slash === -1 ? file : file.slice(0, slash + 1);
}

/** Room-to-room edges, each with one import that makes it (`from -> to`), for the failure message. */
function roomEdges(files: ReadonlyMap<string, string>): Map<string, Map<string, string>> {
  const edges = new Map<string, Map<string, string>>();
  for (const [file, text] of files) {
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = posix.normalize(posix.join(posix.dirname(file), fileName)).replace(/\.js$/, '.ts');
      const [from, to] = [roomOf(file), roomOf(target)];
      if (from === to) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      if (!edges.get(from)!.has(to)) edges.get(from)!.set(to, `${file} -> ${target}`);
    }
  }
  return edges;
}

/** Strongly connected groups of more than one room (Tarjan), each sorted, with the imports inside them. */
function roomCycles(edges: ReadonlyMap<string, ReadonlyMap<string, string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (room: string) => {
    index.set(room, index.size);
    low.set(room, index.get(room)!);
    stack.push(room);
    for (const next of edges.get(room)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(room, Math.min(low.get(room)!, low.get(next)!));
      } else if (stack.includes(next)) {
        low.set(room, Math.min(low.get(room)!, index.get(next)!));
      }
    }
    if (low.get(room) === index.get(room)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        group.push(member);
      } while (member !== room);
      if (group.length > 1) {
        const evidence = group.flatMap((from) =>
          [...(edges.get(from) ?? [])].filter(([to]) => group.includes(to)).map(([, why]) => why),
        );
        cycles.push([...group.sort(), ...evidence.sort()]);
      }
    }
  };
  for (const room of edges.keys()) if (!index.has(room)) visit(room);
  return cycles;
}

function sources(name: string): Map<string, string> {
  const src = join(PACKAGES, name, 'src');
  return new Map(
    sourceFiles(src).map((path) => [relative(src, path).split('\\').join('/'), readFileSync(path, 'utf8')]),
  );
}

function coreSources(): Map<string, string> {
  return sources('core');
}

/** The `@pagewise/*` packages a package's sources import (type-only imports included). */
function packageImports(name: string): string[] {
  const found = new Set<string>();
  for (const text of sources(name).values()) {
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      const match = /^@pagewise\/([a-z-]+)/.exec(fileName);
      if (match !== null) found.add(match[1]!);
    }
  }
  return [...found].sort();
}

describe('the packages have layers: the engine, then the web layer and the adapters; the client apart', () => {
  it('core imports no other package; rest, sql and the memory adapter import core alone; the ORM adapters core and sql; nest imports rest alone; the client imports none', () => {
    expect(packageImports('core')).toEqual([]);
    expect(packageImports('rest')).toEqual(['core']);
    // The engine reaches Nest apps through the web layer, which re-exports it: one peer to install.
    expect(packageImports('nest')).toEqual(['rest']);
    expect(packageImports('sql')).toEqual(['core']);
    expect(packageImports('kysely-adapter')).toEqual(['core', 'sql']);
    expect(packageImports('drizzle-adapter')).toEqual(['core', 'sql']);
    expect(packageImports('memory-adapter')).toEqual(['core']);
    expect(packageImports('client')).toEqual([]);
  });

  it('core holds nothing of the web layer: no request objects, HTML, OpenAPI, routing or Node', () => {
    const web = new Set(['ApiRequest', 'ApiResponse', 'Buffer', 'process', 'require']);
    for (const [file, text] of coreSources()) {
      const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
      const found: string[] = [];
      const visit = (node: ts.Node): void => {
        // A free name only: `globalThis.process` and `{ process?: ... }` name a property.
        const parent = node.parent;
        const property =
          parent !== undefined &&
          (ts.isPropertyAccessExpression(parent) || ts.isPropertySignature(parent)) &&
          parent.name === node;
        if (ts.isIdentifier(node) && web.has(node.text) && !property) found.push(node.text);
        ts.forEachChild(node, visit);
      };
      visit(source);
      const imports = ts.preProcessFile(text, true, true).importedFiles.map((i) => i.fileName);
      // Its one dependency: @noble/hashes, the audited HMAC of signed cursors (issue 38).
      const foreign = imports.filter((name) => !name.startsWith('.') && !name.startsWith('@noble/hashes/'));
      expect([...found, ...foreign], file).toEqual([]);
    }
    expect([...new Set([...coreSources().keys()].map(roomOf))].sort()).toEqual([
      'contract/',
      'cursor/',
      'errors.ts',
      'index.ts',
      'jobs/',
      'pages/',
      'url/',
      'warnings.ts',
    ]);
  });
});

/** The ORMs and query builders @pagewise/sql must never import: its fragments are lowered into them by the adapters. */
const ORM =
  /^(kysely|drizzle-orm|@prisma\/|prisma$|typeorm|sequelize|@mikro-orm\/|mikro-orm|knex|objection|@sequelize\/)/;

/** Every file under a package's folder that imports an ORM (sources and tests alike), `file -> module`. */
function ormImports(name: string): string[] {
  const root = join(PACKAGES, name);
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory())
        return entry.name === 'node_modules' || entry.name === 'dist' ? [] : files(path);
      return /\.(ts|mts|cts|js|mjs|cjs)$/.test(entry.name) ? [path] : [];
    });
  return files(root).flatMap((path) =>
    ts
      .preProcessFile(readFileSync(path, 'utf8'), true, true)
      .importedFiles.map((i) => i.fileName)
      .filter((module) => ORM.test(module))
      .map((module) => `${relative(root, path).split('\\').join('/')} -> ${module}`),
  );
}

describe('@pagewise/sql holds the SQL knowledge without an ORM', () => {
  it('the checker finds an ORM import, however it is written', () => {
    const found = (text: string) =>
      ts
        .preProcessFile(text, true, true)
        .importedFiles.map((i) => i.fileName)
        .filter((module) => ORM.test(module));
    expect(
      found(
        [
          "import { sql } from 'kysely';",
          "import type { SQL } from 'drizzle-orm';",
          "export { eq } from 'drizzle-orm/sql';",
          "const p = await import('@prisma/client');",
          "import 'typeorm';",
          "import { MikroORM } from '@mikro-orm/core';",
          "import { Model } from 'sequelize';",
          "import { kyselyish } from './kysely-like.js';",
        ].join('\n'),
      ),
    ).toEqual([
      'kysely',
      'drizzle-orm',
      'drizzle-orm/sql',
      '@prisma/client',
      'typeorm',
      '@mikro-orm/core',
      'sequelize',
    ]);
  });

  it('no file under packages/sql imports an ORM, and its manifest depends on none', () => {
    expect(ormImports('sql')).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(PACKAGES, 'sql', 'package.json'), 'utf8')) as Record<
      string,
      Record<string, string> | undefined
    >;
    const dependencies = [
      'dependencies',
      'peerDependencies',
      'devDependencies',
      'optionalDependencies',
    ].flatMap((field) => Object.keys(manifest[field] ?? {}));
    expect(dependencies.filter((name) => ORM.test(name))).toEqual([]);
  });

  it('each ORM adapter imports its own ORM and no other: the Drizzle adapter no Kysely, the Kysely adapter no Drizzle', () => {
    const orms = (name: string) => [
      ...new Set(ormImports(name).map((edge) => edge.split(' -> ')[1]!.split('/')[0]!)),
    ];
    expect(orms('drizzle-adapter')).toEqual(['drizzle-orm']);
    expect(orms('kysely-adapter')).toEqual(['kysely']);
  });

  it('sql: the fragment type and the calendar are the bottom, every dialect stands on dialect/ and none on another', () => {
    const edges = roomEdges(sources('sql'));
    const folders = (room: string) =>
      [...(edges.get(room)?.keys() ?? [])].filter((to) => to.endsWith('/')).sort();
    expect(folders('fragment/')).toEqual([]);
    expect(folders('calendar/')).toEqual([]);
    for (const dialect of ['postgres/', 'mysql/', 'sqlite/']) {
      const others = ['postgres/', 'mysql/', 'sqlite/'].filter((other) => other !== dialect);
      expect(folders(dialect), dialect).toContain('dialect/');
      expect(
        folders(dialect).filter((to) => others.includes(to)),
        dialect,
      ).toEqual([]);
    }
    for (const shared of ['dialect/', 'codec/', 'catalog/', 'keyset/', 'planner/']) {
      expect(
        folders(shared).filter((to) => ['postgres/', 'mysql/', 'sqlite/'].includes(to)),
        `${shared} imports a dialect`,
      ).toEqual([]);
    }
  });
});

describe('no folder-level import cycles inside a package', () => {
  it('the checker finds a cycle through a type-only import and names the import', () => {
    const files = new Map([
      ['http/binding.ts', "import { toApiResponse } from '../views/api-view.js';"],
      ['views/api-view.ts', "import type { Renderer } from '../http/renderers.js';"],
      ['views/list-view.ts', "import { ApiView } from './api-view.js';\nimport { x } from '../errors.js';"],
      ['errors.ts', ''],
    ]);
    expect(roomCycles(roomEdges(files))).toEqual([
      ['http/', 'views/', 'http/binding.ts -> views/api-view.ts', 'views/api-view.ts -> http/renderers.ts'],
    ]);
  });

  for (const name of ['core', 'rest', 'sql', 'kysely-adapter', 'drizzle-adapter', 'nest']) {
    it(`packages/${name}/src: no two folders import each other, directly or around a loop`, () => {
      const edges = roomEdges(sources(name));
      expect(roomCycles(edges)).toEqual([]);
    });
  }

  it('core: the contract is the bottom, the cursor machinery under the pages and jobs, url/ a leaf', () => {
    const edges = roomEdges(coreSources());
    const folders = (room: string) =>
      [...(edges.get(room)?.keys() ?? [])].filter((to) => to.endsWith('/')).sort();
    expect(folders('url/')).toEqual([]);
    expect(folders('contract/')).toEqual(['url/']);
    expect(folders('cursor/')).toEqual(['contract/']);
    expect(folders('pages/')).toEqual(['contract/', 'cursor/', 'url/']);
    expect(folders('jobs/')).toEqual(['contract/', 'cursor/']);
  });

  it('rest: request/ is the bottom, html/ and openapi/ are leaves, pagination/ knows no views, routes or bindings', () => {
    const edges = roomEdges(sources('rest'));
    const folders = (room: string) =>
      [...(edges.get(room)?.keys() ?? [])].filter((to) => to.endsWith('/')).sort();
    expect(folders('request/')).toEqual([]);
    expect(folders('html/')).toEqual([]);
    expect(folders('openapi/')).toEqual([]);
    expect(folders('pagination/')).toEqual(['html/', 'openapi/', 'request/']);
    for (const low of ['request/', 'pagination/', 'versioning/', 'routes/', 'http/', 'views/']) {
      expect(edges.get(low)?.has('bindings/') ?? false, `${low} imports bindings/`).toBe(false);
    }
  });
});
