import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// The data path of one cursor page (issue 30): every call that enters a package file from another
// file while one warm page is made, from building the query to the page's body, traced by
// tests/support/data-path (marking hooks over the packages' sources). One engine code path for each
// style: the page returns to a file it already left at most 10 times, and no engine file is entered
// more than 3 times, whether an engine route or a DRF view makes it.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Path {
  readonly calls: number;
  readonly files: number;
  readonly returns: number;
  readonly entries: Readonly<Record<string, number>>;
}

/** The whole request, and the page's data path (from building the query to the page's body). */
interface Trace {
  readonly request: Path;
  readonly data: Path;
}

async function trace(scenario: 'engine' | 'drf'): Promise<Trace> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      '--conditions=@pagewise/source',
      '--import',
      'tsx',
      '--import',
      './tests/support/data-path/register.mjs',
      'tests/support/data-path/data-path.ts',
      scenario,
    ],
    { cwd: ROOT },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Trace;
}

const engineFiles = (entries: Readonly<Record<string, number>>) =>
  Object.entries(entries).filter(([file]) => file.startsWith('core/'));

describe('the data path of one cursor page', () => {
  for (const [scenario, title] of [
    ['engine', "in a user's own Hono route (cursorPage over Kysely)"],
    ['drf', 'in a DRF ListView behind the Hono binding'],
  ] as const) {
    it(`${title}: at most 10 returns, no engine file entered more than 3 times`, async ({ annotate }) => {
      const { request, data } = await trace(scenario);
      await annotate(
        `${scenario}: data path ${data.calls} calls into ${data.files} files, ${data.returns} returns; ` +
          `the whole request ${request.calls} calls into ${request.files} files, ${request.returns} returns`,
      );
      expect(engineFiles(data.entries).filter(([, n]) => n > 3)).toEqual([]);
      expect(data.returns).toBeLessThanOrEqual(10);
    }, 60_000);
  }
});
