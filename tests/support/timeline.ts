import { type Kysely, sql } from 'kysely';

/**
 * A `(id serial, created timestamptz)` table with five rows per second and the writer that
 * churns it while a walk runs: what the concurrent-write and read-replica tests share.
 */
export const TIMELINE_BASE = Date.UTC(2025, 0, 1);

export interface TimelineRow {
  id: number;
  created: Date;
}

/** (Re)creates `table` with `rows` rows and its `(created, id)` index; returns the ids. */
// biome-ignore lint/suspicious/noExplicitAny: test tables are created at run time.
export async function seedTimeline(db: Kysely<any>, table: string, rows: number): Promise<number[]> {
  await db.schema.dropTable(table).ifExists().execute();
  await sql`create table ${sql.table(table)} (id serial primary key, created timestamptz not null)`.execute(
    db,
  );
  await sql`create index on ${sql.table(table)} (created, id)`.execute(db);
  await sql`insert into ${sql.table(table)} (created)
    select timestamptz 'epoch' + (${TIMELINE_BASE / 1000} + (i / 5)) * interval '1 second' from generate_series(0, ${rows - 1}) i`.execute(
    db,
  );
  const ids = await db.selectFrom(table).select('id').execute();
  return ids.map((r) => Number(r.id));
}

/**
 * Inserts and deletes rows at random while a walk runs: half the inserts land at the head of the
 * newest-first order (what shifts every later offset), deletes hit rows that existed at the start.
 */
// biome-ignore lint/suspicious/noExplicitAny: test tables are created at run time.
export function startWriter(db: Kysely<any>, table: string, initial: readonly number[]) {
  const deleted = new Set<number>();
  let running = true;
  let operations = 0;
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const done = (async () => {
    while (running) {
      if (random() < 0.5) {
        const head = random() < 0.5;
        const created = head
          ? new Date(TIMELINE_BASE + 10_000_000 + operations)
          : new Date(TIMELINE_BASE + Math.floor((random() * initial.length) / 5) * 1000);
        await db.insertInto(table).values([{ created }, { created }, { created }]).execute();
      } else {
        const victim = initial[Math.floor(random() * initial.length)]!;
        deleted.add(victim);
        await db.deleteFrom(table).where('id', '=', victim).execute();
      }
      operations += 1;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  })();
  return {
    deleted,
    async stop() {
      running = false;
      await done;
      return operations;
    },
  };
}

/** The ids of `initial` that were never deleted and are missing from `seen`. */
export function missingStableRows(
  initial: readonly number[],
  deleted: ReadonlySet<number>,
  seen: readonly TimelineRow[],
): number[] {
  const seenIds = new Set(seen.map((r) => r.id));
  return initial.filter((id) => !deleted.has(id) && !seenIds.has(id));
}

/** The first pair of neighbours not in `created desc, id desc` order, or `null`. */
export function firstOutOfOrder(seen: readonly TimelineRow[]): [number, number] | null {
  for (let i = 1; i < seen.length; i += 1) {
    const [a, b] = [seen[i - 1]!, seen[i]!];
    const ordered =
      a.created.getTime() > b.created.getTime() ||
      (a.created.getTime() === b.created.getTime() && a.id > b.id);
    if (!ordered) return [a.id, b.id];
  }
  return null;
}
