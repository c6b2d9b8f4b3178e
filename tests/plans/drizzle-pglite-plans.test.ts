import { describeDatabase } from '../support/databases.js';
import { drizzleTarget } from '../support/drizzle-databases.js';
import { compositePlanCases } from './composite-plan-suite.js';
import { planCases } from './plan-suite.js';

// The plan cases of the Kysely adapter on the Drizzle adapter's own statements, run through
// drizzle-orm's driver and EXPLAINed: the same index ranges, no sort.
const target = drizzleTarget('pglite');

describeDatabase(target, 'query plans (drizzle)', () => {
  planCases(target, 'drizzle');
  compositePlanCases(target, 'drizzle');
});
