import { databaseTarget, describeDatabase, tableName } from '../support/databases.js';
import { conformanceCases, sqlBackend } from './conformance-suite.js';
import { slicedBuilderCases } from './sliced-builder-cases.js';
import { sqlMatrixBackend, typeMatrixCases } from './type-matrix.js';
import { viewsetCases } from './viewset-cases.js';

const target = databaseTarget('mariadb');

describeDatabase(target, 'conformance', () => {
  conformanceCases(target.name, async () => sqlBackend(await target.open(), tableName('pw_conf_mariadb')));
  slicedBuilderCases(target.name, async () =>
    sqlBackend(await target.open(), tableName('pw_conf_mariadb_slice')),
  );
  viewsetCases(target.name, async () => sqlBackend(await target.open(), tableName('pw_conf_mariadb_vs')));
  typeMatrixCases(async () => sqlMatrixBackend(await target.open()), target.name);
});
