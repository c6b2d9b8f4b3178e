import { databaseTarget, describeDatabase, tableName } from '../support/databases.js';
import { conformanceCases, sqlBackend } from './conformance-suite.js';
import { slicedBuilderCases } from './sliced-builder-cases.js';
import { sqlMatrixBackend, typeMatrixCases } from './type-matrix.js';
import { viewsetCases } from './viewset-cases.js';

const target = databaseTarget('sqlite');

describeDatabase(target, 'conformance', () => {
  conformanceCases(target.name, async () => sqlBackend(await target.open(), tableName('pw_conf_sqlite')));
  slicedBuilderCases(target.name, async () =>
    sqlBackend(await target.open(), tableName('pw_conf_sqlite_slice')),
  );
  viewsetCases(target.name, async () => sqlBackend(await target.open(), tableName('pw_conf_sqlite_vs')));
  typeMatrixCases(async () => sqlMatrixBackend(await target.open()), target.name);
});
