import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Which Kysely this vitest project runs: the workspace's `kysely`, or the npm alias the
// kysely-<version> project (vitest.config.ts) maps every `kysely` import to and names in
// PAGEWISE_KYSELY.

const fromTests = createRequire(fileURLToPath(new URL('../package.json', import.meta.url)));

/** A Kysely installed for the tests, under its own name or an npm alias. */
export interface InstalledKysely {
  readonly version: string;
  /** The file an ESM `import` of it loads (0.28 ships CommonJS beside it, 0.29 ESM alone). */
  readonly entry: string;
}

type Exports = string | { readonly import?: Exports; readonly default?: Exports } | undefined;

/** Kysely installed as `name` in tests/package.json. */
export function installedKysely(name: string): InstalledKysely {
  // Resolved by its main file and walked up: Kysely 0.29 exports no ./package.json.
  for (let dir = dirname(fromTests.resolve(name)); dir !== dirname(dir); dir = dirname(dir)) {
    let manifest: { name?: string; version: string; exports?: { '.': Exports } };
    try {
      manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    } catch {
      continue;
    }
    if (manifest.name !== 'kysely') continue;
    let entry: Exports = manifest.exports?.['.'];
    while (typeof entry === 'object') entry = entry.import ?? entry.default;
    if (entry === undefined)
      throw new Error(`kysely ${manifest.version} (${name}) exports no "." for import`);
    return { version: manifest.version, entry: join(dir, entry) };
  }
  throw new Error(`no kysely package.json above ${fromTests.resolve(name)}`);
}

/** The package this project's `kysely` imports resolve to: `kysely` or an npm alias of it. */
export const KYSELY_PACKAGE = process.env.PAGEWISE_KYSELY ?? 'kysely';

/** The Kysely this project runs. */
export const KYSELY = installedKysely(KYSELY_PACKAGE);
