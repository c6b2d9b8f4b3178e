import { describe, expect, it } from 'vitest';
import { cast, identifier, isSqlPart, join, literal, node, raw, sql, value } from './fragment.js';
import { RENDER_STYLES, renderSql } from './render.js';
import { Slot } from './slot.js';

describe('fragments', () => {
  it('keeps parts as parts and binds every other interpolated value', () => {
    const fragment = sql`${identifier('a')} = ${7} and ${raw('b')} = ${'x'} and ${new Slot(1)} is ${null}`;
    expect(fragment.strings).toEqual(['', ' = ', ' and ', ' = ', ' and ', ' is ', '']);
    expect(fragment.parts).toEqual([
      identifier('a'),
      value(7),
      raw('b'),
      value('x'),
      new Slot(1),
      value(null),
    ]);
    expect([identifier('a'), value(1), literal(1), node({}), raw('x'), new Slot(0)].every(isSqlPart)).toBe(
      true,
    );
    expect([null, 'text', 1, { kind: 'other' }].some(isSqlPart)).toBe(false);
  });

  it('writes each dialect its own quotes and placeholders, slots and values in order', () => {
    const fragment = sql`select ${join([identifier('public', 'it"ems'), cast(new Slot(0), 'text')])} where ${identifier('a')} = ${5} and ${literal("it's")} <> ${literal(51)}`;
    expect(renderSql(fragment, RENDER_STYLES.postgres)).toEqual({
      sql: `select "public"."it""ems", cast($1 as text) where "a" = $2 and 'it''s' <> 51`,
      parameters: [new Slot(0), 5],
    });
    expect(renderSql(fragment, RENDER_STYLES.mysql).sql).toBe(
      "select `public`.`it\"ems`, cast(? as text) where `a` = ? and 'it''s' <> 51",
    );
    expect(renderSql(fragment, RENDER_STYLES.sqlite).sql).toBe(
      `select "public"."it""ems", cast(? as text) where "a" = ? and 'it''s' <> 51`,
    );
  });

  it("writes an ORM's node as the renderer given says, and refuses to guess one", () => {
    const column = node({ name: 'created' });
    expect(
      renderSql(sql`${column} desc`, RENDER_STYLES.sqlite, (n) => `"${(n as { name: string }).name}"`).sql,
    ).toBe('"created" desc');
    expect(() => renderSql(column, RENDER_STYLES.sqlite)).toThrow(/renderNode/);
    expect(join([]).strings).toEqual(['']);
  });
});
