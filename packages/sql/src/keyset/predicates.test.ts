import type { KeyTerm } from '@pagewise/core';
import { describe, expect, it } from 'vitest';
import type { DialectCapabilities } from '../dialect/capabilities.js';
import { identifier, type SqlPart } from '../fragment/fragment.js';
import { RENDER_STYLES, type RenderStyle, renderSql } from '../fragment/render.js';
import { mysqlCapabilities } from '../mysql/capabilities.js';
import { postgresCapabilities } from '../postgres/capabilities.js';
import { sqliteCapabilities } from '../sqlite/capabilities.js';
import { orderByItems } from './order-items.js';
import { boundSlots, keysetPredicate, segmentPredicates, stopPredicate } from './predicates.js';
import { planSegments } from './segments.js';

// The keyset shapes as text, through the reference lowering alone: no ORM.

const desc = (field: string): KeyTerm => ({ field, direction: 'desc', nulls: 'first' });
const asc = (field: string): KeyTerm => ({ field, direction: 'asc', nulls: 'last' });
const id = (direction: 'asc' | 'desc'): KeyTerm => ({ field: 'id', direction, nulls: 'last', unique: true });
const text = (part: SqlPart, style: RenderStyle) => renderSql(part, style).sql;
const exprs = (order: readonly KeyTerm[]) => order.map((term) => identifier(term.field));

function keyset(order: KeyTerm[], capabilities: DialectCapabilities, style: RenderStyle): string {
  return text(keysetPredicate(order, exprs(order), boundSlots(order), 0, capabilities), style);
}

describe('keyset predicates', () => {
  it('a row value where directions agree and the dialect seeks on it, led by a plain bound on Postgres', () => {
    const order = [desc('created'), id('desc')];
    expect(keyset(order, postgresCapabilities, RENDER_STYLES.postgres)).toBe(
      '"created" <= $1 and ("created", "id") < ($2, $3)',
    );
    expect(
      keyset(order, { ...postgresCapabilities, rowValueLeadingBound: false }, RENDER_STYLES.postgres),
    ).toBe('("created", "id") < ($1, $2)');
    expect(keyset(order, sqliteCapabilities, RENDER_STYLES.sqlite)).toBe('("created", "id") < (?, ?)');
  });

  it('the expanded form behind a leading range bound on MariaDB and for mixed directions, its tie negated on Postgres', () => {
    expect(keyset([desc('created'), id('desc')], mysqlCapabilities, RENDER_STYLES.mysql)).toBe(
      '`created` <= ? and (`created` < ? or (`created` = ? and `id` < ?))',
    );
    expect(keyset([desc('created'), id('asc')], postgresCapabilities, RENDER_STYLES.postgres)).toBe(
      '"created" <= $1 and not ("created" = $2 and not ("id" > $3))',
    );
    expect(keyset([asc('a'), desc('b'), id('desc')], sqliteCapabilities, RENDER_STYLES.sqlite)).toBe(
      '"a" >= ? and ("a" > ? or ("a" = ? and ("b" < ? or ("b" = ? and "id" < ?))))',
    );
  });

  it("a NULL segment of its own, and MySQL's emulated NULL placement in ORDER BY", () => {
    const order = [{ ...desc('score'), nulls: 'last' as const }, id('desc')];
    const segments = planSegments(order, [true, false], [null, 7], mysqlCapabilities);
    expect(
      segments.map((segment) =>
        segmentPredicates(segment, order, exprs(order), boundSlots(order), mysqlCapabilities)
          .map((p) => text(p, RENDER_STYLES.mysql))
          .join(' and '),
      ),
    ).toEqual(['`score` is null and `id` < ?']);
    // MySQL sorts NULL low: ascending with NULLs last is emulated by a leading `IS NULL` key.
    const ascending = [asc('score'), id('asc')];
    const items = orderByItems(
      ascending,
      exprs(ascending),
      (i) => (i === 0 ? false : 'column'),
      mysqlCapabilities,
    );
    expect(items.map((item) => `${text(item.expr, RENDER_STYLES.mysql)} ${item.direction}`)).toEqual([
      '`score` is null asc',
      '`score` asc',
      '`id` asc',
    ]);
    expect(orderByItems(order, exprs(order), () => false, postgresCapabilities).map((i) => i.nulls)).toEqual([
      'last',
      'last',
    ]);
  });

  it('the far bound of a window between two cursors, in the slots after the limit and offset', () => {
    const order = [desc('created'), id('desc')];
    const stop = stopPredicate(order, exprs(order), [false, false], [false, false], postgresCapabilities);
    expect(
      renderSql(stop, RENDER_STYLES.postgres).parameters.map((slot) => (slot as { index: number }).index),
    ).toEqual([4, 4, 5]);
    expect(text(stop, RENDER_STYLES.postgres)).toBe(
      '"created" >= $1 and not ("created" = $2 and not ("id" > $3))',
    );
  });
});
