import type { KeyTerm } from '@pagewise/core';
import { fromKysely } from '@pagewise/kysely-adapter';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { expect, test } from 'vitest';

test('[sqlite] a multi-segment window with a large offset neither overflows the stack nor loses rows', async () => {
  const db = new Kysely<{ t: { id: number; score: number | null } }>({
    dialect: new SqliteDialect({ database: new Database(':memory:') }),
  });
  await sql`create table t (id integer primary key, score integer)`.execute(db);
  // 250,000 rows, every tenth score NULL; SQLite puts NULLs first ascending, core puts them last,
  // so the window runs as two segments (values, then the NULL block).
  await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 250000)
    insert into t select i, case when i % 10 = 0 then null else i % 1000 end from n`.execute(db);
  const query = fromKysely(db.selectFrom('t').select(['id', 'score']), { db });
  const order: KeyTerm[] = [
    { field: 'score', direction: 'asc', nulls: 'last' },
    { field: 'id', direction: 'asc', nulls: 'last', unique: true },
  ];
  const page = await query.fetch({ order, after: null, offset: 230_000, limit: 3 });
  // 225,000 non-NULL rows come first, so offset 230,000 lands in the NULL block, ordered by id.
  expect(page.map((r) => r.row)).toEqual([
    { id: 50_010, score: null },
    { id: 50_020, score: null },
    { id: 50_030, score: null },
  ]);
  await db.destroy();
}, 60_000);
