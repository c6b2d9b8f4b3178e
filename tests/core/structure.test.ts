import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Core's layering, checked from the import statements themselves (type-only imports included: a
// cycle through types still ties two rooms together for a reader). A "room" is a folder of
// packages/core/src; a file directly in src/ (errors.ts, settings.ts, index.ts) is a room of its own.

const SRC = fileURLToPath(new URL('../../packages/core/src/', import.meta.url));

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

function coreSources(): Map<string, string> {
  return new Map(
    sourceFiles(SRC).map((path) => [relative(SRC, path).split('\\').join('/'), readFileSync(path, 'utf8')]),
  );
}

describe('core has no folder-level import cycles', () => {
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

  it('packages/core/src: no two folders import each other, directly or around a loop', () => {
    const edges = roomEdges(coreSources());
    expect(edges.size).toBeGreaterThan(5);
    expect(roomCycles(edges)).toEqual([]);
  });

  it('request/ is the bottom, html/ and openapi/ are leaves, pagination/ knows no web layer', () => {
    const edges = roomEdges(coreSources());
    const folders = (room: string) => [...(edges.get(room)?.keys() ?? [])].filter((to) => to.endsWith('/'));
    // Everything else is written against request/; it may use root-level files (errors.ts) only.
    expect(folders('request/')).toEqual([]);
    expect(folders('html/')).toEqual([]);
    expect(folders('openapi/')).toEqual([]);
    expect(folders('pagination/').sort()).toEqual(['html/', 'openapi/', 'request/']);
    for (const low of ['request/', 'pagination/', 'versioning/', 'routes/', 'http/', 'views/']) {
      expect(edges.get(low)?.has('bindings/') ?? false, `${low} imports bindings/`).toBe(false);
    }
  });
});
