import { describe, expect, it } from 'vitest';
import { serverStatementTimeout } from '../catalog/server-statement-timeout.js';
import { CatalogCache, type SqlSession } from '../catalog/session.js';
import { boundedStatement } from '../dialect/statement-timeout.js';
import { postgresCapabilities } from '../postgres/capabilities.js';
import { mysqlCapabilities } from './capabilities.js';
import {
  mysqlExecutionTimeout,
  mysqlStatementTimeout,
  mysqlStatementTimeoutFor,
} from './statement-timeout.js';

const COUNT = 'select count(*) as `count` from (select 1 as `one` from `items`) as `pagewise_count`';

/** A session whose server answers `version` to `select version()`, counting the reads. */
function sessionOf(version: string) {
  const reads: string[] = [];
  const session: SqlSession = {
    adapter: { name: 'kysely', factory: 'fromKysely' },
    capabilities: mysqlCapabilities,
    cache: new CatalogCache(),
    uniqueKey: 'id',
    columns: {},
    planKey: '',
    lasting: true,
    read: async (statement) => {
      reads.push(JSON.stringify(statement));
      return [{ version }];
    },
  };
  return { session, reads };
}

describe('countTimeout on the mysql dialect: MariaDB and MySQL by the server version', () => {
  it("MariaDB's version text contains MariaDB: SET STATEMENT max_statement_time, in seconds", () => {
    for (const version of ['10.11.19-MariaDB-0+deb12u1', '11.4.2-MariaDB', '5.5.5-10.6.12-MariaDB-log']) {
      const timeout = mysqlStatementTimeoutFor(version);
      expect(timeout.hint).toBeUndefined();
      expect(boundedStatement(timeout, 250, COUNT)).toBe(
        `SET STATEMENT max_statement_time=0.25 FOR ${COUNT}`,
      );
    }
  });

  it("MySQL's does not: the MAX_EXECUTION_TIME hint after the leading select, in whole ms", () => {
    for (const version of ['8.0.36', '8.4.3', '5.7.44-log', '9.1.0-commercial']) {
      const timeout = mysqlStatementTimeoutFor(version);
      expect(timeout).toBe(mysqlExecutionTimeout);
      expect(timeout.prefix).toBeUndefined();
      expect(boundedStatement(timeout, 250, COUNT)).toBe(
        'select /*+ MAX_EXECUTION_TIME(250) */ count(*) as `count` from (select 1 as `one` from `items`) as `pagewise_count`',
      );
    }
    // 0 would be no limit: a fraction of a millisecond rounds up.
    expect(mysqlExecutionTimeout.hint!(0.4)).toBe('/*+ MAX_EXECUTION_TIME(1) */');
    expect(mysqlExecutionTimeout.hint!(1500.2)).toBe('/*+ MAX_EXECUTION_TIME(1501) */');
  });

  it("both servers' timeout errors are recognised, and nothing else", () => {
    for (const timeout of [mysqlExecutionTimeout, mysqlStatementTimeoutFor('10.11.19-MariaDB')]) {
      expect(timeout.timedOut({ errno: 3024, code: 'ER_QUERY_TIMEOUT' })).toBe(true);
      expect(timeout.timedOut({ errno: 1969, code: 'ER_STATEMENT_TIMEOUT' })).toBe(true);
      expect(timeout.timedOut({ errno: 1064, code: 'ER_PARSE_ERROR' })).toBe(false);
      expect(timeout.timedOut(new Error('boom'))).toBe(false);
    }
  });

  it('the server version is read once per database (its cache), and chooses the form', async () => {
    const mysql = sessionOf('8.4.3');
    expect(await serverStatementTimeout(mysql.session)).toBe(mysqlExecutionTimeout);
    expect(await serverStatementTimeout(mysql.session)).toBe(mysqlExecutionTimeout);
    expect(mysql.reads).toHaveLength(1);
    expect(mysql.reads[0]).toContain('select version()');
    const mariadb = sessionOf('10.11.19-MariaDB-0+deb12u1');
    const chosen = await serverStatementTimeout(mariadb.session);
    expect(chosen?.prefix?.(1000)).toBe('SET STATEMENT max_statement_time=1 FOR');
    expect(mysqlStatementTimeout.byServer?.choose('8.0.36')).toBe(mysqlExecutionTimeout);
  });

  it('a failed version read is not kept: the next count asks again', async () => {
    let calls = 0;
    const { session } = sessionOf('8.4.3');
    const failing: SqlSession = {
      ...session,
      read: async () => {
        calls += 1;
        if (calls === 1) throw new Error('connection lost');
        return [{ version: '8.4.3' }];
      },
    };
    await expect(serverStatementTimeout(failing)).rejects.toThrow('connection lost');
    expect(await serverStatementTimeout(failing)).toBe(mysqlExecutionTimeout);
  });

  it('a dialect whose bound does not depend on the server reads no version', async () => {
    const { session, reads } = sessionOf('unused');
    const postgres = { ...session, capabilities: postgresCapabilities };
    expect(await serverStatementTimeout(postgres)).toBe(postgresCapabilities.statementTimeout);
    expect(reads).toEqual([]);
  });
});
