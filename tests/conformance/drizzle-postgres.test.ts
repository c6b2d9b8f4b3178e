import { describeDatabase, tableName } from '../support/databases.js';
import { drizzleTarget } from '../support/drizzle-databases.js';
import { conformanceCases } from './conformance-suite.js';
import { drizzleBackend, drizzleMatrixQuery } from './drizzle-backend.js';
import { slicedBuilderCases } from './sliced-builder-cases.js';
import { sqlMatrixBackend, typeMatrixCases } from './type-matrix.js';

// The conformance cases of the Kysely adapter, run on the Drizzle adapter over drizzle-orm's own
// driver: the same pages and the same links (cursor tokens) as the memory reference, so as Kysely's;
// and the type matrix, every type walked both ways in the database's own order.
const target = drizzleTarget('postgres');

describeDatabase(target, 'conformance (drizzle)', () => {
  conformanceCases(`drizzle-${target.name}`, async () =>
    drizzleBackend(await target.open(), tableName('pw_dz_conf_postgres')),
  );
  slicedBuilderCases(`drizzle-${target.name}`, async () =>
    drizzleBackend(await target.open(), tableName('pw_dz_conf_postgres_slice')),
  );
  typeMatrixCases(async () => {
    const database = await target.open();
    return sqlMatrixBackend(
      database,
      (table) => drizzleMatrixQuery(database, table),
      `drizzle-${target.name}`,
    );
  }, `drizzle-${target.name}`);
});
