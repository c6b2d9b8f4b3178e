import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { databaseTarget, describeDatabase, tableName } from '../support/databases.js';
import { conformanceCases, sqlBackend } from './conformance-suite.js';
import { sqlMatrixBackend, typeMatrixCases } from './type-matrix.js';

// Postgres through `nameStatements`: every page is a named prepared statement, rerun with new
// values, so the suite and the type matrix check that named statements answer as unnamed ones.
const target = databaseTarget('postgres-named-statements');

describeDatabase(target, 'conformance', () => {
  conformanceCases(target.name, async () =>
    sqlBackend(await target.open(), tableName('pw_conf_postgres_named')),
  );
  typeMatrixCases(async () => sqlMatrixBackend(await target.open()), target.name);

  it('statements with parameters are prepared under a name; those without run as before', async () => {
    const { db, close } = await target.open();
    try {
      const texts = await db.connection().execute(async (connection) => {
        await sql`select ${1}::int as one`.execute(connection);
        await sql`select ${2}::int as one`.execute(connection);
        const { rows } = await sql<{ name: string; statement: string }>`
          select name, statement from pg_prepared_statements where statement like ${'%as one%'}`.execute(
          connection,
        );
        return rows;
      });
      expect(texts).toEqual([
        { name: expect.stringMatching(/^pagewise_\d+$/), statement: 'select $1::int as one' },
      ]);
    } finally {
      await close();
    }
  });
});
