import { createPool, type Pool } from 'mysql2';
import { afterAll, describe, expect, it } from 'vitest';
import { MysqlWireReplay } from '../src/mysql-wire-replay.js';

const url = process.env.MYSQL_URL;
if (!url)
  console.warn(
    'MysqlWireReplay test skipped: it replays a real MariaDB/MySQL server, and MYSQL_URL is not set',
  );
const streams: MysqlWireReplay[] = [];
let pool: Pool | undefined;

function replayed(): Pool {
  const { hostname, port } = new URL(url!);
  pool = createPool({
    uri: url!,
    timezone: 'Z',
    connectionLimit: 1,
    stream: () => {
      const stream = new MysqlWireReplay(new Map(), Number(port || 3306), hostname);
      streams.push(stream);
      return stream;
    },
  });
  return pool;
}

const run = (p: Pool, sql: string, values: unknown[] = []) =>
  new Promise<unknown>((resolve) =>
    p.query(sql, values, (error, rows) => resolve(error ? String(error) : rows)),
  );

afterAll(async () => {
  await new Promise((resolve) => (pool ? pool.end(resolve) : resolve(null)));
});

describe.skipIf(!url)('MysqlWireReplay', () => {
  it('answers the same command from the tape and any other from the server', async () => {
    const p = replayed();
    const dates = `select id, cast('2024-05-01 12:00:00.5' as datetime(3)) as at from (select 1 as id union all select 2) t where id <= ? order by id`;
    const first = await run(p, dates, [2]);
    expect(first).toEqual([
      { id: 1, at: new Date(Date.UTC(2024, 4, 1, 12, 0, 0, 500)) },
      { id: 2, at: new Date(Date.UTC(2024, 4, 1, 12, 0, 0, 500)) },
    ]);
    const [stream] = streams;
    expect([stream!.recorded, stream!.replayed]).toEqual([1, 0]);
    expect(await run(p, dates, [2])).toEqual(first);
    expect([stream!.recorded, stream!.replayed]).toEqual([1, 1]);
    // Other values are other bytes: sent to the server, not answered from the tape.
    expect(await run(p, dates, [1])).toEqual((first as unknown[]).slice(0, 1));
    expect([stream!.recorded, stream!.replayed]).toEqual([2, 1]);
    // An error and an empty result end their answers too; the connection goes on.
    const error = await run(p, 'select * from pagewise_no_such_table');
    expect(error).toMatch(/doesn't exist/);
    expect(await run(p, 'select * from pagewise_no_such_table')).toBe(error);
    expect(await run(p, 'select 1 as one from dual where 1 = 0')).toEqual([]);
    expect(await run(p, 'select 1 as one from dual where 1 = 0')).toEqual([]);
    expect(await run(p, 'select 7 as seven')).toEqual([{ seven: 7 }]);
    expect([stream!.recorded, stream!.replayed]).toEqual([5, 3]);
  });
});
