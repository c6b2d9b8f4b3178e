import { databaseTarget, describeDatabase, tableName } from '../support/databases.js';
import { conformanceCases, sqlBackend } from './conformance-suite.js';
import { sqlMatrixBackend, typeMatrixCases } from './type-matrix.js';

// SQLite through `reusePreparedStatements`: every page reruns a statement prepared once, so the
// whole suite and the type matrix check that reused statements answer as fresh ones do.
const target = databaseTarget('sqlite-reused-statements');

describeDatabase(target, 'conformance', () => {
  conformanceCases(target.name, async () =>
    sqlBackend(await target.open(), tableName('pw_conf_sqlite_reused')),
  );
  typeMatrixCases(async () => sqlMatrixBackend(await target.open()), target.name);
});
