import { drizzleConformance } from './drizzle-backend.js';

// Drizzle's node-postgres driver over `nameStatements(pool)`: every page a named prepared
// statement, rerun with new values, with Drizzle's own type parsers (timestamps as text).
drizzleConformance('postgres-named-statements');
