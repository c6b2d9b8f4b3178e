// `@pagewise/drizzle-adapter`: `fromDrizzle`, a thin translation from Drizzle's select builder to
// `@pagewise/sql`, which knows the dialects. Statements run through the Drizzle database's session.

// The pg pool wrapper Drizzle's node-postgres driver takes as it takes a pool (`@pagewise/sql`'s).
export { type NameStatementsOptions, nameStatements } from '@pagewise/sql';
export { DrizzleQuery } from './drizzle-query.js';
export { fromDrizzle } from './from-drizzle.js';
export type { DrizzleDatabase, DrizzleQueryOptions, DrizzleSelect, RowOf } from './options.js';
