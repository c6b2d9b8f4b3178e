import { databaseTarget, describeDatabase } from '../support/databases.js';
import { compositePlanCases } from './composite-plan-suite.js';
import { planCases } from './plan-suite.js';

const target = databaseTarget('postgres');

describeDatabase(target, 'query plans', () => {
  planCases(target);
  compositePlanCases(target);
});
