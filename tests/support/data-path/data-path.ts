// The data path of one cursor page: every call that enters a file of packages/*/src from another
// file (or from outside: Hono, Kysely, the runtime), while one warm cursor page is served. Run
// with the marking hooks, from the workspace root:
//
//   node --conditions=@pagewise/source --import tsx --import ./tests/support/data-path/register.mjs \
//     tests/support/data-path/data-path.ts [drf|engine] [--sequence]
//
// It prints one JSON line of two traces: `request`, everything serving the page did, and `data`,
// the page's data path (the scenario marks it: from building the query to the page's body, what an
// engine route or a DRF view does with the query, without the HTTP layer around it). Each has
// `calls` (entries into a package file from another file), `files` (the files entered), `returns`
// (entries into a file already entered before: calls - files) and `entries` per file.
// `tests/core/data-path.test.ts` holds the limits.

interface Entry {
  readonly from: string;
  readonly to: string;
  /** The function entered, as the stack names it (for `--sequence`). */
  readonly fn: string;
}

const PACKAGE_FRAME = /\/packages\/([^/]+)\/src\/([^:)]+)\.(?:ts|js):\d/;
const LOCATED_FRAME = /(?:\(|at )(?:file:|node:|\/)/;
let recording = false;
let inData = false;
const entries: Entry[] = [];
const dataEntries: Entry[] = [];

Error.stackTraceLimit = 64;
function trace(file: string): void {
  if (!recording) return;
  const holder: { stack?: string } = {};
  Error.captureStackTrace(holder, trace);
  // [0] is the message, [1] the marked function itself; the first located frame after it called it.
  const lines = (holder.stack ?? '').split('\n');
  const fn = /at (?:async )?(\S+)/.exec(lines[1] ?? '')?.[1] ?? '?';
  const frames = lines.slice(2);
  let from = 'outside';
  for (const frame of frames) {
    const inPackage = PACKAGE_FRAME.exec(frame);
    if (inPackage !== null) {
      from = `${inPackage[1]}/${inPackage[2]}.ts`;
      break;
    }
    // A frame with no location (`Array.map`, `new Promise`) passes the call through.
    if (LOCATED_FRAME.test(frame)) break;
  }
  if (from === file) return;
  entries.push({ from, to: file, fn });
  if (inData) dataEntries.push({ from, to: file, fn });
}
(globalThis as { __pagewiseTrace?: (file: string) => void }).__pagewiseTrace = trace;
/** The scenarios mark where the page's data path starts and ends. */
(globalThis as { __pagewiseDataPath?: (on: boolean) => void }).__pagewiseDataPath = (on) => {
  inData = on;
};

const scenario = process.argv[2] ?? 'drf';
const { serve } = await import(`./scenario-${scenario}.js`);
// Two warm walks (plans, statements and caches made), then the page that is traced.
const url = 'http://localhost/items';
const first = await serve(url);
await serve(first.next);
await serve(first.next);
recording = true;
const page = await serve(first.next);
recording = false;
if (page.results.length === 0) throw new Error('the traced page is empty');

function summary(list: readonly Entry[]) {
  const perFile = new Map<string, number>();
  for (const { to } of list) perFile.set(to, (perFile.get(to) ?? 0) + 1);
  return {
    calls: list.length,
    files: perFile.size,
    returns: list.length - perFile.size,
    entries: Object.fromEntries([...perFile].sort((a, b) => b[1] - a[1])),
    ...(process.argv.includes('--sequence')
      ? { sequence: list.map((e) => `${e.from} -> ${e.to} ${e.fn}`) }
      : {}),
  };
}
if (dataEntries.length === 0) throw new Error('the scenario marked no data path');
console.log(JSON.stringify({ scenario, request: summary(entries), data: summary(dataEntries) }));
