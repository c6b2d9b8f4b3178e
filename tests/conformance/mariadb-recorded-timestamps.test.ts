import { fromKysely } from '@pagewise/kysely-adapter';
import { expect, it } from 'vitest';
import { databaseTarget, describeDatabase, tableName } from '../support/databases.js';
import { conformanceCases, sqlBackend } from './conformance-suite.js';
import { sqlMatrixBackend, typeMatrixCases } from './type-matrix.js';

// MariaDB through `recordExactTimestamps`: date-time positions are read from the text mysql2
// recorded instead of a `cast(... as char)` column, so the suite and the type matrix check that
// both ways give the same pages.
const target = databaseTarget('mariadb-recorded-timestamps');

describeDatabase(target, 'conformance', () => {
  conformanceCases(target.name, async () =>
    sqlBackend(await target.open(), tableName('pw_conf_mariadb_recorded')),
  );
  typeMatrixCases(async () => sqlMatrixBackend(await target.open()), target.name);

  it('the pool records the text: pages over a date-time select no text column', async () => {
    const sent: string[] = [];
    const { db, close } = await target.open((event) => {
      if (event.level === 'query') sent.push(event.query.sql);
    });
    const table = tableName('pw_conf_mariadb_recorded_probe');
    try {
      await db.schema.dropTable(table).ifExists().execute();
      await db.schema
        .createTable(table)
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('created', 'datetime(6)', (c) => c.notNull())
        .execute();
      await db.insertInto(table).values({ id: 1, created: '2024-05-01 12:00:00.000001' }).execute();
      const rows = await fromKysely(db.selectFrom(table).selectAll(), { db }).fetch({
        order: [{ field: 'created', direction: 'desc', nulls: 'first' }],
        after: null,
        offset: 0,
        limit: 2,
      });
      expect(rows.map((r) => r.position)).toEqual([['2024-05-01 12:00:00.000001']]);
      expect(sent.filter((s) => s.includes(table) && s.includes('as char'))).toEqual([]);
    } finally {
      await db.schema.dropTable(table).ifExists().execute();
      await close();
    }
  });
});
