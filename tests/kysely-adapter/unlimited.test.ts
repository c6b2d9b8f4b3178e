import { fromKysely } from '@pagewise/kysely-adapter';
import { fromArray } from '@pagewise/memory-adapter';
import { ApiRequest, ListView } from '@pagewise/rest';
import type { LogEvent } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { databaseTargets, describeDatabase, type TestDatabase } from '../support/databases.js';
import { itemsDataset } from '../support/datasets.js';
import { createTable, dropTable, normalizeRow } from '../support/tables.js';

const TABLE = `pw_everything_${process.pid}`;
const dataset = itemsDataset();

for (const target of databaseTargets()) {
  describeDatabase(target, 'windows without a limit', () => {
    let database: TestDatabase;
    const statements: string[] = [];

    beforeAll(async () => {
      database = await target.open((event: LogEvent) => {
        if (event.level === 'query') statements.push(event.query.sql);
      });
      await createTable(database, TABLE, dataset);
    });

    afterAll(async () => {
      await dropTable(database, TABLE);
      await database.close();
    });

    const query = () =>
      fromKysely(database.db.selectFrom(TABLE).selectAll().orderBy('score', 'desc').orderBy('id', 'asc'), {
        db: database.db,
      });
    const expected = () =>
      fromArray(dataset.rows, { ordering: ['-score', 'id'] })
        .fetch({ order: null, after: null, offset: 0, limit: null })
        .then((rows) => rows.map((r) => r.row.id));

    test('limit null reads every row in one statement without LIMIT', async () => {
      statements.length = 0;
      const rows = await query().fetch({ order: null, after: null, offset: 0, limit: null });
      expect(rows.map((r) => normalizeRow(dataset, r.row as Record<string, unknown>).id)).toEqual(
        await expected(),
      );
      const reads = statements.filter((s) => s.includes(TABLE));
      expect(reads).toHaveLength(1);
      expect(reads[0]!.toLowerCase()).not.toMatch(/\blimit\b/);
    });

    test('limit null with an offset skips the offset and reads the rest', async () => {
      const rows = await query().fetch({ order: null, after: null, offset: 20, limit: null });
      expect(rows.map((r) => normalizeRow(dataset, r.row as Record<string, unknown>).id)).toEqual(
        (await expected()).slice(20),
      );
    });

    test('an unpaginated ListView lists everything with one query and no count', async () => {
      statements.length = 0;
      const view = new ListView({ queryset: query(), paginationClass: null });
      const response = await view.dispatch(new ApiRequest({ url: 'http://testserver/items/' }));
      const body = typeof response.data === 'string' ? JSON.parse(response.data) : response.data;
      expect((body as Array<{ id: number }>).map((r) => Number(r.id))).toEqual(await expected());
      const reads = statements.filter((s) => s.includes(TABLE));
      expect(reads).toHaveLength(1);
      expect(reads[0]!.toLowerCase()).not.toContain('count(');
    });
  });
}
