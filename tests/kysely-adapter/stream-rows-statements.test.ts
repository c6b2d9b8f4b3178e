// streamRows on real SQL (issue 13): the statements the log sees are keyset batches of
// batchSize + 1 rows, never OFFSET, never COUNT, and stopping the loop stops them.
import { streamRows } from '@pagewise/core';
import { fromKysely } from '@pagewise/kysely-adapter';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { databaseTarget, describeDatabase, type TestDatabase, tableName } from '../support/databases.js';
import { drfDataset } from '../support/datasets.js';
import { createTable, dropTable } from '../support/tables.js';

// DRF's duplicate-heavy list: 30 rows, `created` ties everywhere, so the batches stand on the id tiebreaker.
const drf = drfDataset();

for (const name of ['sqlite', 'postgres', 'mariadb'] as const) {
  const target = databaseTarget(name);
  describeDatabase(target, 'streamRows statements', () => {
    const statements: Array<{ sql: string; parameters: readonly unknown[] }> = [];
    const table = tableName(`pw_stream_${name}`);
    let database: TestDatabase;

    beforeAll(async () => {
      database = await target.open((event) => {
        if (event.level === 'query')
          statements.push({ sql: event.query.sql, parameters: event.query.parameters });
      });
      await createTable(database, table, drf);
    });
    afterAll(async () => {
      if (database === undefined) return;
      await dropTable(database, table);
      await database.close();
    });

    const query = () => fromKysely(database.db.selectFrom(table).selectAll(), { db: database.db });
    const ran = (from: number) => statements.slice(from).filter((s) => s.sql.includes(table));

    it('one keyset statement per batch of batchSize + 1, in order over ties', async () => {
      const from = statements.length;
      const seen: Array<[number, number]> = [];
      for await (const row of streamRows(query(), { ordering: 'created', batchSize: 7 })) {
        seen.push([Number(row.created), Number(row.id)]);
      }
      const expected = drf.rows
        .map((r) => [Number(r.created), Number(r.id)])
        .sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
      expect(seen).toEqual(expected);
      const batches = ran(from);
      expect(batches).toHaveLength(Math.ceil(30 / 7));
      for (const statement of batches) {
        expect(statement.sql).not.toMatch(/\boffset\b|\bcount\(/i);
        // batchSize + 1: a parameter, or written as a number on Postgres (`literalLimit`).
        const written = /\blimit (\d+)$/.exec(statement.sql)?.[1];
        expect(written === undefined ? statement.parameters.at(-1) : Number(written)).toBe(8);
      }
    });

    it('leaving the loop after the first row runs one statement and no more', async () => {
      const from = statements.length;
      for await (const _row of streamRows(query(), { ordering: '-created', batchSize: 5 })) break;
      expect(ran(from)).toHaveLength(1);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(ran(from)).toHaveLength(1);
    });
  });
}
