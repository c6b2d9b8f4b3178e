import { postgresMajor, providedPostgres } from './postgres-server.js';

// Runs in each test process before its test file: a server the global setup started becomes
// `PG_URL`, so every suite that reads it (through tests/support/databases.ts or not) reaches it.
// In a project of one major whose build could not start, `PG_URL` is cleared: its suites must not
// silently run on another server; they skip with the reason (tests/support/databases.ts).
const provided = providedPostgres();
if (provided !== undefined && 'url' in provided) process.env.PG_URL = provided.url;
else if (provided !== undefined) {
  process.env.PAGEWISE_PG_UNAVAILABLE = provided.unavailable;
  if (postgresMajor() !== undefined) delete process.env.PG_URL;
}
