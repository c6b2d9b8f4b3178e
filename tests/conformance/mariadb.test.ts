import { databaseTarget, describeDatabase, tableName } from '../support/databases.js';
import { conformanceCases, sqlBackend } from './conformance-suite.js';
import { sqlMatrixBackend, typeMatrixCases } from './type-matrix.js';

const target = databaseTarget('mariadb');

describeDatabase(target, 'conformance', () => {
  conformanceCases(target.name, async () => sqlBackend(await target.open(), tableName('pw_conf_mariadb')));
  typeMatrixCases(async () => sqlMatrixBackend(await target.open()), target.name);
});
