import type { KeyTerm, PositionValue } from '@pagewise/core';
import { fromKysely } from '@pagewise/kysely-adapter';
import { type CompiledQuery, type LogEvent, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type DatabaseTarget, type TestDatabase, tableName } from '../support/databases.js';
import { explain, explainGeneric } from './plan-suite.js';

/** Thirteen monthly partitions, January 2024 to January 2025. */
const MONTHS = 13;
const ROWS_PER_MONTH = 1_000;
const ROWS = MONTHS * ROWS_PER_MONTH;
const PAGE = 50;

const order: readonly KeyTerm[] = [
  { field: 'created', direction: 'desc', nulls: 'first' },
  { field: 'id', direction: 'desc', nulls: 'last', unique: true },
];
const byGroup: readonly KeyTerm[] = [{ field: 'grp', direction: 'desc', nulls: 'first' }, ...order];

async function seed(db: TestDatabase['db'], table: string): Promise<void> {
  await sql.raw(`drop table if exists "${table}"`).execute(db);
  await sql
    .raw(
      // The key the cursors tiebreak by is declared unique, as the adapter requires of a table it
      // can read the indexes of; a partitioned table's must hold its partition key.
      `create table "${table}" (id integer not null, created timestamptz(3) not null, grp integer not null,
         primary key (id, created)) partition by range (created)`,
    )
    .execute(db);
  for (let m = 0; m < MONTHS; m += 1) {
    const from = `2024-01-01 00:00:00+00'::timestamptz + interval '${m} month`;
    const to = `2024-01-01 00:00:00+00'::timestamptz + interval '${m + 1} month`;
    await sql
      .raw(`create table "${table}_m${m}" partition of "${table}" for values from ('${from}') to ('${to}')`)
      .execute(db);
  }
  // Spread over the 13 months; every 7th instant is shared by two rows, so the tiebreaker matters.
  await sql
    .raw(
      `insert into "${table}" select n,
         timestamptz '2024-01-01 00:00:00+00' + ((n / 2) * 7) * (interval '396 days' / ${ROWS * 4}),
         n % 20
       from generate_series(1, ${ROWS}) n`,
    )
    .execute(db);
  // On the parent: every partition gets its own copy, as users write it.
  await sql.raw(`create index "${table}_created_id" on "${table}" (created, id)`).execute(db);
  await sql.raw(`create index "${table}_grp" on "${table}" (grp, created, id)`).execute(db);
  await sql.raw(`analyze "${table}"`).execute(db);
}

/** The plan without its `Sort Key` lines (a Merge Append's merge key is no Sort node). */
function nodes(plan: readonly string[]): string {
  return plan.filter((line) => !/^\s*(Sort|Presorted) Key:/.test(line)).join('\n');
}

/** Each scanned partition with the Index Cond under it (`null` when the scan has none). */
function partitionScans(
  plan: readonly string[],
  table: string,
): Array<{ line: string; cond: string | null }> {
  const scans: Array<{ line: string; cond: string | null }> = [];
  plan.forEach((line, i) => {
    if (!new RegExp(` on ${table}_m\\d+`).test(line)) return;
    const depth = line.search(/\S/);
    let cond: string | null = null;
    for (let j = i + 1; j < plan.length && plan[j]!.search(/\S/) > depth; j += 1) {
      if (plan[j]!.includes('Index Cond')) cond = plan[j]!.trim();
    }
    scans.push({ line: line.trim(), cond });
  });
  return scans;
}

/**
 * A table range-partitioned by month of its timestamp, the indexes declared on the parent: a
 * cursor page deep in the table is an index range on each partition it reads, merged in order
 * (ordered Append when the ordering leads with the partition key, Merge Append otherwise), no
 * Sort, and the partitions the bound excludes are pruned.
 */
export function partitionPlanCases(target: DatabaseTarget): void {
  const table = tableName(`pw_part_${target.name}`);
  const statements: CompiledQuery[] = [];
  let database: TestDatabase;

  beforeAll(async () => {
    database = await target.open((event: LogEvent) => {
      if (event.level === 'query') statements.push(event.query);
    });
    await seed(database.db, table);
  });
  afterAll(async () => {
    if (!database) return;
    await sql.raw(`drop table if exists "${table}"`).execute(database.db);
    await database.close();
  });

  async function pagePlan(terms: readonly KeyTerm[], depth: number): Promise<string[]> {
    const query = fromKysely(database.db.selectFrom(table).selectAll(), { db: database.db });
    const [at] = await query.fetch({ order: terms, after: null, offset: depth, limit: 1 });
    const bound: PositionValue[] = [...at!.position];
    statements.length = 0;
    const rows = await query.fetch({ order: terms, after: bound, offset: 0, limit: PAGE + 1 });
    expect(rows).toHaveLength(PAGE + 1);
    const plan = await explain(database, statements[0]!);
    console.log(`EXPLAIN ${target.name} | partitioned | ${plan.map((l) => l.trim()).join(' / ')}`);
    return plan;
  }

  it(`[${target.name}] EXPLAIN: -created, -id on ${MONTHS} monthly partitions: index ranges in order, later months pruned`, async () => {
    // Half-way down: the six newest months lie before the bound.
    const plan = await pagePlan(order, Math.floor(ROWS / 2));
    const text = nodes(plan);
    expect(text).toMatch(/^\s*Limit/);
    expect(text).toMatch(/\b(Merge )?Append\b/);
    expect(text).not.toMatch(/\bSort\b|Seq Scan/);
    const scans = partitionScans(plan, table);
    expect(scans.length).toBeGreaterThan(0);
    // Partition pruning: the partitions newer than the bound's month are not in the plan at all.
    expect(scans.length).toBeLessThanOrEqual(MONTHS - 5);
    for (const scan of scans) {
      expect(scan.line).toMatch(/Index (Only )?Scan/);
      // The bound is the index range inside every partition read.
      expect(scan.cond).toMatch(/created <=/);
      expect(scan.cond).toMatch(/ROW\(created, id\) < ROW\(/);
    }
    // The newest partition read first holds the bound's month; older ones follow in order.
    const months = scans.map((s) => Number(/_m(\d+)/.exec(s.line)![1]));
    expect(months).toEqual([...months].sort((a, b) => b - a));
  });

  it(`[${target.name}] EXPLAIN: -grp, -created, -id on ${MONTHS} monthly partitions: Merge Append of index ranges, the bound in each`, async () => {
    const plan = await pagePlan(byGroup, Math.floor(ROWS / 3));
    const text = nodes(plan);
    expect(text).toMatch(/Merge Append/);
    expect(text).not.toMatch(/\bSort\b|Seq Scan/);
    const scans = partitionScans(plan, table);
    // The bound is on grp, not the partition key: every partition is read, each by its index range.
    expect(scans).toHaveLength(MONTHS);
    for (const scan of scans) {
      expect(scan.line).toMatch(/Index (Only )?Scan/);
      expect(scan.cond).toMatch(/grp <=/);
      expect(scan.cond).toMatch(/ROW\(grp, created, id\) < ROW\(/);
    }
  });

  it(`[${target.name}] a generic plan (prepared statements) prunes at run time: Subplans Removed`, async () => {
    const query = fromKysely(database.db.selectFrom(table).selectAll(), { db: database.db });
    const [at] = await query.fetch({ order, after: null, offset: Math.floor(ROWS / 2), limit: 1 });
    statements.length = 0;
    await query.fetch({ order, after: [...at!.position], offset: 0, limit: PAGE + 1 });
    const statement = statements[0]!;
    const plan = await explainGeneric(database, statement);
    console.log(`EXPLAIN ${target.name} | partitioned, generic | ${plan.map((l) => l.trim()).join(' / ')}`);
    const removed = /Subplans Removed: (\d+)/.exec(plan.join('\n'));
    expect(removed).not.toBeNull();
    expect(Number(removed![1])).toBeGreaterThanOrEqual(5);
  });
}
