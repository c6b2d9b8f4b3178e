import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { judgeRelease, kyselyTargets, targetProblems } from './kysely-release.js';

// `pnpm kysely:latest`: asks the npm registry (through npm, with its configuration) for kysely's
// `latest` dist-tag and says whether @pagewise/kysely-adapter's peer range covers it and whether
// it is the version tested. Not part of CI's verdict: a Kysely release must not fail an old
// commit's CI. Exits 1 when the release is outside the peer range (users get ERESOLVE), 0 otherwise.

const ROOT = fileURLToPath(new URL('../', import.meta.url));

const targets = kyselyTargets(ROOT);
for (const problem of targetProblems(targets)) console.warn(`warning: ${problem}`);
const { stdout } = await promisify(execFile)('npm', ['view', 'kysely', 'dist-tags.latest'], { cwd: ROOT });
const verdict = judgeRelease(stdout.trim(), targets);
console.log(`peer range ${targets.peerRange}; tested ${targets.lowest} and ${targets.highest}`);
console.log(verdict.message);
process.exitCode = verdict.kind === 'unsupported' ? 1 : 0;
