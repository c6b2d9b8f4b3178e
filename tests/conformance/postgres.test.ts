import { databaseTarget, describeDatabase, tableName } from '../support/databases.js';
import { conformanceCases, sqlBackend } from './conformance-suite.js';
import { sqlMatrixBackend, typeMatrixCases } from './type-matrix.js';

const target = databaseTarget('postgres');

describeDatabase(target, 'conformance', () => {
  conformanceCases(target.name, async () => sqlBackend(await target.open(), tableName('pw_conf_postgres')));
  typeMatrixCases(async () => sqlMatrixBackend(await target.open()), target.name);
});
