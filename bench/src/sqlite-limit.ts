/**
 * SQLite's cost of a keyset statement's LIMIT as a parameter and as a written number, run raw
 * through better-sqlite3 (each statement prepared once): the first page, and the `UNION ALL` of a
 * cursor page (`mergedSegments`: the rows tied with the bound, then the rest, merged under one
 * ORDER BY), beside the row-value comparison a hand-written page uses. Statements are timed in
 * rounds of a shuffled order; the medians of the rounds are printed.
 *
 * Run: pnpm --filter @pagewise/bench exec tsx src/sqlite-limit.ts [--rows 200000] [--depth 100000]
 */
import type Database from 'better-sqlite3';
import { memoryItems } from './sqlite-items.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`);
  return at < 0 ? fallback : Number(args[at + 1]);
};
const rows = flag('rows', 200_000);
const depth = flag('depth', rows / 2);
const ROUNDS = 15;
const RUNS = 1500;

const db = memoryItems(rows);
const bound = db
  .prepare('SELECT id, created FROM items ORDER BY created DESC, id DESC LIMIT 1 OFFSET ?')
  .get(depth) as { id: number; created: string };

const SELECT = 'SELECT id, created, score, title FROM items';
const ORDER = 'ORDER BY created DESC, id DESC';
const MERGED = `${SELECT} WHERE created = ? AND id < ? UNION ALL ${SELECT} WHERE created < ? ${ORDER}`;
const statements: Array<[string, string, unknown[]]> = [
  ['first page, limit ?', `${SELECT} ${ORDER} LIMIT ?`, [51]],
  ['first page, limit 51', `${SELECT} ${ORDER} LIMIT 51`, []],
  ['cursor page, merged arms, limit ?', `${MERGED} LIMIT ?`, [bound.created, bound.id, bound.created, 51]],
  ['cursor page, merged arms, limit 51', `${MERGED} LIMIT 51`, [bound.created, bound.id, bound.created]],
  [
    'cursor page, row value (hand-written), limit ?',
    `${SELECT} WHERE (created, id) < (?, ?) ${ORDER} LIMIT ?`,
    [bound.created, bound.id, 51],
  ],
];
const prepared = statements.map(([name, text, values]) => ({ name, statement: db.prepare(text), values }));
const ids = (values: unknown[], statement: Database.Statement) =>
  (statement.all(...values) as Array<{ id: number }>).map((r) => r.id).join();
const cursorPages = prepared.slice(2).map((p) => ids(p.values, p.statement));
if (new Set(cursorPages).size !== 1) throw new Error('the cursor page statements read different rows');

const samples = new Map<string, number[]>(prepared.map((p) => [p.name, []]));
for (let round = 0; round < ROUNDS; round += 1) {
  const order = [...prepared].sort(() => Math.random() - 0.5);
  for (const { name, statement, values } of order) {
    for (let i = 0; i < 100; i += 1) statement.all(...values);
    const start = performance.now();
    for (let i = 0; i < RUNS; i += 1) statement.all(...values);
    samples.get(name)!.push(((performance.now() - start) * 1000) / RUNS);
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const lines = [
  `SQLite ${(db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v}, ${rows} rows in memory, cursor pages at depth ${depth}; medians of ${ROUNDS} rounds of ${RUNS} runs:`,
  '',
  '| statement | us per run |',
  '| --- | --- |',
  ...prepared.map(({ name }) => `| ${name} | ${median(samples.get(name)!).toFixed(1)} |`),
];
process.stdout.write(`${lines.join('\n')}\n`);
db.close();
