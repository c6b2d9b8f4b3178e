import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { daysFromCivil } from '../calendar/civil-days.js';
import { ExactText } from '../codec/exact-text.js';
import type { Mysql2Pool as MysqlPool, Mysql2PoolConnection as MysqlPoolConnection } from './mysql2-types.js';
import { recordExactTimestamps } from './record-exact-timestamps.js';

describe('daysFromCivil, as driverDate uses it', () => {
  it('counts days as Date.UTC does, days past the month end included (years 100 to 9999)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 9999 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 31 }),
        (y, m, d) => {
          expect(daysFromCivil(y, m, d) * 86_400_000).toBe(Date.UTC(y, m - 1, d));
        },
      ),
      { numRuns: 5000 },
    );
    for (const [y, m, d] of [
      [100, 1, 1],
      [1600, 2, 29],
      [1900, 2, 29],
      [1969, 12, 31],
      [1970, 1, 1],
      [2000, 2, 30],
      [9999, 12, 31],
    ] as const) {
      expect(daysFromCivil(y, m, d) * 86_400_000).toBe(Date.UTC(y, m - 1, d));
    }
  });
});

/** What the fake driver was asked to run: a command it was handed, or options. */
type Sent = { readonly command: boolean; readonly options: Record<string, unknown> };
type Callback = (error: unknown, rows: unknown, fields?: unknown) => void;

/** A mysql2-like query command: keeps its options, as mysql2's `Query` does, unless `forgetful`. */
function commandClass(forgetful: boolean) {
  return class Query {
    readonly sql: unknown;
    readonly _queryOptions: Record<string, unknown>;
    readonly onResult: Callback;
    constructor(options: Record<string, unknown>, callback: Callback) {
      this.sql = options.sql;
      this._queryOptions = forgetful ? { ...options } : options;
      this.onResult = callback;
    }
  };
}

/**
 * A pool of one fake mysql2 connection over a result of one DATETIME column: date strings when
 * the query asks for them (as options or in a command), `Date`s otherwise.
 */
function fakePool(createQuery: 'keeps options' | 'forgets options' | 'missing', sent: Sent[]): MysqlPool {
  const Query = commandClass(createQuery === 'forgets options');
  const answer = (options: Record<string, unknown>, callback: Callback) => {
    const text = '2024-05-01 12:00:00.123';
    const created = options.dateStrings === true ? text : new Date(Date.UTC(2024, 4, 1, 12, 0, 0, 123));
    setImmediate(() => callback(null, [{ id: 1, created }], [{ name: 'created', columnType: 12 }]));
  };
  class Connection {
    static createQuery =
      createQuery === 'missing'
        ? undefined
        : (sql: string, values: unknown, cb: Callback) =>
            new Query({ rowsAsArray: undefined, infileStreamFactory: undefined, sql, values }, cb);
    readonly config = { timezone: 'Z' };
    query(first: unknown, second?: unknown): void {
      if (first instanceof Query) {
        sent.push({ command: true, options: first._queryOptions });
        answer(first._queryOptions, first.onResult);
      } else {
        const options = first as Record<string, unknown>;
        sent.push({ command: false, options });
        answer(options, second as Callback);
      }
    }
    release(): void {}
  }
  const connection = new Connection();
  return {
    getConnection: (callback) => callback(null, connection as unknown as MysqlPoolConnection),
    end: (callback) => callback(null),
  };
}

async function queryThrough(pool: MysqlPool): Promise<Array<Record<string, unknown>>> {
  const connection = await new Promise<MysqlPoolConnection>((resolve, reject) =>
    pool.getConnection((error, c) => (error ? reject(error) : resolve(c))),
  );
  return new Promise((resolve, reject) =>
    connection.query('select id, created from t', [], (error, result) =>
      error ? reject(error) : resolve(result as Array<Record<string, unknown>>),
    ),
  );
}

describe('recordExactTimestamps: how queries reach mysql2', () => {
  it("hands mysql2 a command made by its own createQuery's class, asking for date strings", async () => {
    const sent: Sent[] = [];
    const rows = await queryThrough(recordExactTimestamps(fakePool('keeps options', sent)));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.command).toBe(true);
    expect(sent[0]!.options).toMatchObject({
      sql: 'select id, created from t',
      values: [],
      dateStrings: true,
    });
    expect(rows[0]!.created).toEqual(new Date(Date.UTC(2024, 4, 1, 12, 0, 0, 123)));
    expect(ExactText.of(rows[0]!.created)).toBe('2024-05-01 12:00:00.123');
  });

  it('sends options where the command would not keep them, or the driver has no createQuery', async () => {
    for (const kind of ['forgets options', 'missing'] as const) {
      const sent: Sent[] = [];
      const rows = await queryThrough(recordExactTimestamps(fakePool(kind, sent)));
      expect(sent.map((s) => s.command)).toEqual([false]);
      expect(sent[0]!.options).toMatchObject({ dateStrings: true });
      expect(rows[0]!.created).toEqual(new Date(Date.UTC(2024, 4, 1, 12, 0, 0, 123)));
      expect(ExactText.of(rows[0]!.created)).toBe('2024-05-01 12:00:00.123');
    }
  });
});
