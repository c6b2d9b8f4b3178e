import { databaseTarget, describeDatabase } from '../support/databases.js';
import { compositePlanCases } from './composite-plan-suite.js';
import { planCases } from './plan-suite.js';

const target = databaseTarget('postgres');

describeDatabase(target, 'query plans', () => {
  planCases(target);
  // The timestamp's text selected in place of its column: ORDER BY names the table's column.
  planCases(target, 'kysely', 'columns');
  compositePlanCases(target);
});
