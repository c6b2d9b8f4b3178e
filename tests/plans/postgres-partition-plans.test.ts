import { databaseTarget, describeDatabase } from '../support/databases.js';
import { partitionPlanCases } from './partition-plan-suite.js';

const target = databaseTarget('postgres');

describeDatabase(target, 'query plans on a partitioned table', () => {
  partitionPlanCases(target);
});
