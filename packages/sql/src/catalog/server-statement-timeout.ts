import type { StatementTimeout } from '../dialect/statement-timeout.js';
import type { SqlSession } from './session.js';

/**
 * The statement timeout of `session`'s server: the dialect's own, or, where the dialect's form
 * depends on the server (`byServer`), the form its version asks for, read once per database and
 * kept in the session's cache. `null` where the dialect cannot bound a statement.
 *
 * @example
 * await serverStatementTimeout(session) // MySQL 8.4: mysqlExecutionTimeout; MariaDB: mysqlStatementTimeout
 */
export function serverStatementTimeout(session: SqlSession): Promise<StatementTimeout | null> {
  const timeout = session.capabilities.statementTimeout;
  const byServer = timeout?.byServer;
  if (byServer === undefined) return Promise.resolve(timeout);
  const cache = session.cache;
  let pending = cache.statementTimeout;
  if (pending === undefined) {
    pending = session.read(byServer.versionQuery).then((rows) => {
      const row = rows[0];
      const version = row === undefined ? '' : Object.values(row)[0];
      return byServer.choose(String(version ?? ''));
    });
    pending.catch(() => {
      cache.statementTimeout = undefined;
    });
    cache.statementTimeout = pending;
  }
  return pending;
}
