import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';

/**
 * The Kysely versions the repository claims and tests, read from the manifests that decide them:
 * the adapter's peer range, the workspace's own `kysely` (the lowest end, which every suite runs
 * on) and the `kysely-highest` npm alias (the highest end, which the `kysely-<version>` vitest
 * project and `tsconfig.kysely-highest.json` run the adapter on).
 */
export interface KyselyTargets {
  /** `peerDependencies.kysely` of `@pagewise/kysely-adapter`. */
  readonly peerRange: string;
  /** The exact version of the workspace's `kysely` (tests/package.json). */
  readonly lowest: string;
  /** The exact version behind the `kysely-highest` alias (tests/package.json). */
  readonly highest: string;
}

/** The alias under which tests/package.json installs the highest supported Kysely. */
export const KYSELY_HIGHEST = 'kysely-highest';

interface Manifest {
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
}

function manifest(root: string, path: string): Manifest {
  return JSON.parse(readFileSync(join(root, path), 'utf8')) as Manifest;
}

/** An exact version, or an error that says which manifest entry is not one. */
function exact(spec: string | undefined, where: string): string {
  const version = spec === undefined ? null : semver.valid(spec);
  if (version === null) {
    throw new Error(`${where} is ${JSON.stringify(spec)}: it must be one exact version, the one tested`);
  }
  return version;
}

/** The targets as the manifests under `root` (the repository's top folder) state them. */
export function kyselyTargets(root: string): KyselyTargets {
  const peerRange = manifest(root, 'packages/kysely-adapter/package.json').peerDependencies?.kysely;
  if (peerRange === undefined || semver.validRange(peerRange) === null) {
    throw new Error(`@pagewise/kysely-adapter's peer range on kysely is not a range: ${peerRange}`);
  }
  const tests = manifest(root, 'tests/package.json').devDependencies ?? {};
  const alias = tests[KYSELY_HIGHEST];
  return {
    peerRange,
    lowest: exact(tests.kysely, 'tests/package.json devDependencies.kysely'),
    highest: exact(
      alias?.replace(/^npm:kysely@/, ''),
      `tests/package.json devDependencies.${KYSELY_HIGHEST}`,
    ),
  };
}

/** Whether the targets are consistent: the ends tested are the range's ends. */
export function targetProblems({ peerRange, lowest, highest }: KyselyTargets): string[] {
  const problems: string[] = [];
  const bound = semver.minVersion(peerRange)?.version;
  if (bound !== lowest) {
    problems.push(
      `the peer range ${peerRange} starts at ${bound}, but the lowest version tested is ${lowest}`,
    );
  }
  if (!semver.satisfies(highest, peerRange)) {
    problems.push(`the highest version tested, ${highest}, is outside the peer range ${peerRange}`);
  }
  const nextMinor = semver.inc(highest, 'minor')!;
  if (!semver.gtr(nextMinor, peerRange)) {
    problems.push(
      `the peer range ${peerRange} reaches past the highest minor tested (${highest}): it admits ${nextMinor}`,
    );
  }
  return problems;
}

/** What a Kysely release means for the repository. */
export type ReleaseVerdict =
  /** The release is the highest version tested. */
  | { readonly kind: 'tested'; readonly message: string }
  /** Inside the peer range but newer than the highest version tested: bump the alias. */
  | { readonly kind: 'untested'; readonly message: string }
  /** Outside the peer range (a new minor): users get ERESOLVE until it is supported. */
  | { readonly kind: 'unsupported'; readonly message: string }
  /** Older than what is tested (a dist-tag moved back, or the alias is a prerelease). */
  | { readonly kind: 'older'; readonly message: string };

/**
 * What `latest` (the registry's `latest` dist-tag of kysely) means against the targets.
 *
 * @example
 * judgeRelease('0.30.0', { peerRange: '^0.28.18 || ^0.29.0', lowest: '0.28.18', highest: '0.29.9' }).kind
 * // 'unsupported'
 */
export function judgeRelease(latest: string, targets: KyselyTargets): ReleaseVerdict {
  const { peerRange, highest } = targets;
  const version = semver.valid(latest);
  if (version === null) throw new Error(`not a version: ${JSON.stringify(latest)}`);
  const covered = semver.satisfies(version, peerRange);
  if (version === highest) {
    return {
      kind: 'tested',
      message: `kysely ${version} is the highest version tested; ${peerRange} covers it.`,
    };
  }
  if (semver.lt(version, highest)) {
    return {
      kind: 'older',
      message: `kysely's latest, ${version}, is older than the highest version tested (${highest}).`,
    };
  }
  if (covered) {
    return {
      kind: 'untested',
      message:
        `kysely ${version} is inside the peer range ${peerRange} but untested (highest tested: ${highest}). ` +
        `Set "${KYSELY_HIGHEST}": "npm:kysely@${version}" in tests/package.json, pnpm install, pnpm test:kysely.`,
    };
  }
  return {
    kind: 'unsupported',
    message:
      `kysely ${version} is outside the peer range ${peerRange}: npm answers ERESOLVE to anyone on it. ` +
      `Read its release notes, set "${KYSELY_HIGHEST}": "npm:kysely@${version}" in tests/package.json, ` +
      `add "|| ^${semver.major(version)}.${semver.minor(version)}.0" to the peer range, pnpm install, ` +
      'pnpm test:kysely and pnpm typecheck (CONTRIBUTING.md, "Supported Kysely versions").',
  };
}
