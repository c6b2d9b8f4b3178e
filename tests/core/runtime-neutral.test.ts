import { describe, expect, it } from 'vitest';
import { bundle, coreEntryPoints, nodeGlobalReferences } from '../support/bundle.js';

// Core runs unchanged on Node, Deno, Bun and Workers: every entry point of @pagewise/core bundles
// for a neutral platform (a `node:` import does not resolve there) and refers to no Node global.

describe('runtime-neutral core', () => {
  it('the checker sees free Node globals and lets property reads through', () => {
    expect(
      nodeGlobalReferences(
        [
          'process.emitWarning(w);',
          'const b = Buffer.from("x");',
          'globalThis.process?.emitWarning?.(w);',
          'const o = { process: 1 }; o.process;',
        ].join('\n'),
      ),
    ).toEqual(['process: process.emitWarning(w);', 'Buffer: const b = Buffer.from("x");']);
  });

  it('a node: import does not bundle for a neutral platform', async () => {
    await expect(bundle("export { createHmac } from 'node:crypto';")).rejects.toThrow(/node:crypto/);
  });

  for (const entry of coreEntryPoints()) {
    it(`${entry}: bundles without Node built-ins and names neither process nor Buffer`, async () => {
      const { code, modules } = await bundle(`export * from '${entry}';`);
      expect(modules.length).toBeGreaterThan(0);
      expect(nodeGlobalReferences(code)).toEqual([]);
    });
  }
});
