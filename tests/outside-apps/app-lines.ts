// What each app of tests/outside-apps costs its author: lines of code, the lines of glue among
// them, and the packages it imports. Read from the apps' text, so the table cannot drift from them.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const APPS_DIR = fileURLToPath(new URL('apps/', import.meta.url));

/** One app as the table lists it: its files under apps/ and what it needed beyond its packages. */
export interface AppEntry {
  readonly app: string;
  readonly files: readonly string[];
  readonly needed: string;
}

/** The apps the table lists, in the order; the GraphQL rows both count the shared schema. */
export const APPS: readonly AppEntry[] = [
  {
    app: 'Hono + Postgres',
    files: ['hono-postgres.ts'],
    needed: 'nothing: Hono\'s default error handler answers `Invalid cursor` as 404 `{"detail"}`',
  },
  {
    app: 'Hono + Drizzle + Postgres',
    files: ['hono-drizzle-postgres.ts'],
    needed:
      "nothing: a Drizzle schema instead of Kysely's interface; positions exact under Drizzle's `Date` mode",
  },
  {
    app: 'Express 5 + SQLite',
    files: ['express-sqlite.ts'],
    needed: "an error handler for DRF's body (Express 5 sends the 404 as an HTML page); the URL from `req`",
  },
  {
    app: "Express 5 + SQLite, DRF's ListView",
    files: ['express-listview.ts'],
    needed: "nothing: `toExpressHandler` checks `Host` and answers Pagewise's errors as DRF does",
  },
  {
    app: 'Fastify 5 + MariaDB',
    files: ['fastify-mariadb.ts'],
    needed: "`setErrorHandler` for DRF's body (Fastify sends its own 404 body); the URL from `request`",
  },
  {
    app: 'NestJS 12 + SQLite',
    files: ['nest-sqlite.ts'],
    needed: '`PagewiseModule.forRoot` with the allowed hosts; the handler returns the page',
  },
  {
    app: 'graphql-yoga + SQLite',
    files: ['graphql-schema.ts', 'graphql-yoga.ts'],
    needed: '`unmaskApiErrors(maskError)`: Yoga shows other errors as `Unexpected error.`',
  },
  {
    app: 'Apollo Server + SQLite',
    files: ['graphql-schema.ts', 'apollo-server.ts'],
    needed:
      "graphql 16 (Apollo Server 5 peers on `^16.11`); nothing else: Apollo passes a Pagewise error's message and `extensions.code`",
  },
  {
    app: '@pagewise/client + TanStack Query core',
    files: ['tanstack-client.ts'],
    needed: 'a query function taking the first page of `iteratePages`; `getNextPageParam` reading `next`',
  },
  {
    app: 'kysely-paginate (Express 5 + SQLite)',
    files: ['kysely-paginate/express-sqlite.ts'],
    needed:
      "kysely 0.24 in a folder of its own (its peer range); `moduleResolution: bundler` (under nodenext its CommonJS typings meet kysely's CommonJS declarations: TS2345); cursor values checked and parsed by hand; links, `Link` header, body and 404 by hand",
  },
];

export interface AppCount {
  readonly lines: number;
  readonly glue: number;
  readonly packages: readonly string[];
}

/**
 * Lines that are neither blank nor only a comment. Glue is what joins the pagination library to
 * the framework rather than what the feed says: a line ending in `// glue`, or the lines under a
 * comment starting `// Glue` up to the next blank line or the first line indented less than it.
 */
export function countLines(source: string): Omit<AppCount, 'packages'> {
  let lines = 0;
  let glue = 0;
  let glueIndent: number | null = null;
  let inBlockComment = false;
  for (const line of source.split('\n')) {
    const text = line.trim();
    const indent = line.length - line.trimStart().length;
    if (inBlockComment) {
      if (text.includes('*/')) inBlockComment = false;
      continue;
    }
    if (text === '' || (glueIndent !== null && indent < glueIndent)) glueIndent = null;
    if (text.startsWith('/*') && !text.includes('*/')) {
      inBlockComment = true;
      continue;
    }
    if (text === '' || text.startsWith('//') || (text.startsWith('/*') && text.endsWith('*/'))) {
      if (/^\/\/ Glue\b/.test(text)) glueIndent = indent;
      continue;
    }
    lines += 1;
    if (glueIndent !== null || /\/\/ glue\b/.test(text)) glue += 1;
  }
  return { lines, glue };
}

/** The packages a source imports (not `node:` builtins, not its own files). */
export function importedPackages(source: string): string[] {
  const names = new Set<string>();
  for (const [, specifier] of source.matchAll(/^import\s[^'"]*['"]([^'"]+)['"]/gm)) {
    if (specifier!.startsWith('.') || specifier!.startsWith('node:')) continue;
    const parts = specifier!.split('/');
    names.add(specifier!.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
  }
  return [...names].sort();
}

export function countApp(entry: AppEntry): AppCount {
  let lines = 0;
  let glue = 0;
  const packages = new Set<string>();
  for (const file of entry.files) {
    const source = readFileSync(`${APPS_DIR}${file}`, 'utf8');
    const counted = countLines(source);
    lines += counted.lines;
    glue += counted.glue;
    for (const name of importedPackages(source)) packages.add(name);
  }
  return { lines, glue, packages: [...packages].sort() };
}

/** The Markdown table docs/frameworks.md holds and the suite prints. */
export function appTable(entries: readonly AppEntry[]): string {
  const rows = entries.map((entry) => {
    const { lines, glue, packages } = countApp(entry);
    const files = entry.files.map((file) => `\`${file}\``).join(' + ');
    const imports = packages.map((name) => `\`${name}\``).join(', ');
    return `| ${entry.app} | ${files} | ${lines} | ${glue} | ${imports} | ${entry.needed} |`;
  });
  return [
    '| app | files | lines | glue | imports | what it needed |',
    '|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}
