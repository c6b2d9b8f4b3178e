import { describe, expect, it } from 'vitest';
import { defaultLabel, serializerInfo } from './simple-metadata.js';

describe('serializerInfo: JSON Schema as DRF field metadata', () => {
  it('labels: ID for id, underscores as spaces, first letter up; a title wins', () => {
    expect([defaultLabel('id'), defaultLabel('published_at'), defaultLabel('publishedAt')]).toEqual([
      'ID',
      'Published at',
      'PublishedAt',
    ]);
    expect(serializerInfo({ properties: { x: { type: 'string', title: 'Ex' } } }, null).x?.label).toBe('Ex');
  });

  it('nullable forms read as their type; formats as DRF field types', () => {
    const info = serializerInfo(
      {
        properties: {
          a: { anyOf: [{ type: 'string', format: 'email', maxLength: 9 }, { type: 'null' }] },
          b: { type: ['number', 'null'] },
          c: { type: 'string', format: 'date-time' },
          d: { type: 'string', format: 'uri' },
          e: { type: 'number', format: 'decimal' },
          f: {},
        },
      },
      null,
    );
    expect(Object.fromEntries(Object.entries(info).map(([name, field]) => [name, field.type]))).toEqual({
      a: 'email',
      b: 'float',
      c: 'datetime',
      d: 'url',
      e: 'decimal',
      f: 'field',
    });
    expect(info.a?.max_length).toBe(9);
  });

  it('choices: enum, const with titles, and a unique list of them ("multiple choice")', () => {
    const info = serializerInfo(
      {
        properties: {
          size: { enum: ['s', 'm', null] },
          tags: { type: 'array', uniqueItems: true, items: { enum: ['a', 'b'] } },
          ro: { enum: ['x'], readOnly: true },
        },
      },
      null,
    );
    expect(info.size?.choices).toEqual([
      { value: 's', display_name: 's' },
      { value: 'm', display_name: 'm' },
    ]);
    expect([info.tags?.type, info.tags?.choices?.length]).toEqual(['multiple choice', 2]);
    // Read-only fields list no choices, as DRF's.
    expect(info.ro).toEqual({ type: 'choice', required: false, read_only: true, label: 'Ro' });
  });

  it('$ref into $defs, a cycle stopped; JavaScript integer bounds left out', () => {
    const info = serializerInfo(
      {
        $defs: { Node: { type: 'object', properties: { next: { $ref: '#/$defs/Node' } } } },
        properties: {
          node: { $ref: '#/$defs/Node' },
          n: { type: 'integer', minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
        },
      },
      null,
    );
    expect(info.node?.type).toBe('nested object');
    expect(info.node?.children?.next?.type).toBe('nested object');
    expect(info.n).toEqual({ type: 'integer', required: false, read_only: false, label: 'N' });
    expect(() => JSON.stringify(info)).not.toThrow();
  });

  it('writableFields: the others read-only, those required; one missing from the schema still listed', () => {
    const info = serializerInfo({ properties: { id: { type: 'integer' }, name: { type: 'string' } } }, [
      'name',
      'email',
    ]);
    expect(info).toEqual({
      id: { type: 'integer', required: false, read_only: true, label: 'ID' },
      name: { type: 'string', required: true, read_only: false, label: 'Name' },
      email: { type: 'field', required: true, read_only: false, label: 'Email' },
    });
    expect(serializerInfo(null, null)).toEqual({});
  });
});
