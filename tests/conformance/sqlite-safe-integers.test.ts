import { databaseTarget, describeDatabase, tableName } from '../support/databases.js';
import { conformanceCases, sqlBackend } from './conformance-suite.js';
import { sqlMatrixBackend, typeMatrixCases } from './type-matrix.js';

const target = databaseTarget('sqlite-safe-integers');

describeDatabase(target, 'conformance', () => {
  conformanceCases(target.name, async () =>
    sqlBackend(await target.open(), tableName('pw_conf_sqlite_safe')),
  );
  typeMatrixCases(async () => sqlMatrixBackend(await target.open()), target.name);
});
