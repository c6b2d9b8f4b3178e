// Checks the demo's tests run on OpenAPI documents and the clients generated from them.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { expect } from 'vitest';

const DEMO = new URL('..', import.meta.url).pathname;

/** Redocly's recommended rules (the demo's config) on each file: 0 errors and 0 warnings. */
export async function expectLintClean(files: readonly string[]): Promise<void> {
  const { stdout } = await promisify(execFile)(
    join(DEMO, 'node_modules/.bin/redocly'),
    ['lint', '--config', join(DEMO, 'redocly.yaml'), '--format=json', ...files],
    { cwd: DEMO, maxBuffer: 16 * 1024 * 1024 },
  ).catch((error: { stdout?: string; stderr?: string }) => {
    throw new Error(`redocly lint failed:\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
  });
  const totals = [...stdout.matchAll(/"totals":\s*(\{[^}]*\})/g)].map(
    (match) => JSON.parse(match[1]!) as { errors: number; warnings: number },
  );
  expect(totals).toHaveLength(files.length);
  expect(
    totals.every((total) => total.errors === 0 && total.warnings === 0),
    stdout,
  ).toBe(true);
}

/** The files compile under strict TypeScript. */
export function expectCompiles(files: readonly string[]): void {
  const program = ts.createProgram([...files], {
    strict: true,
    noEmit: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
  });
  const diagnostics = ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  expect(diagnostics).toEqual([]);
}
