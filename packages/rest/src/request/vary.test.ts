import { describe, expect, it } from 'vitest';
import { patchVaryHeaders } from './vary.js';

describe('patchVaryHeaders (Django)', () => {
  it.each([
    [null, ['Accept'], 'Accept'],
    ['Cookie', ['Accept'], 'Cookie, Accept'],
    ['Cookie, accept', ['Accept'], 'Cookie, accept'],
    ['Cookie', ['Accept', 'X-API-Version'], 'Cookie, Accept, X-API-Version'],
    ['*', ['Accept'], '*'],
    ['Origin', ['*'], '*'],
  ] as const)('%s + %j -> %s', (existing, add, expected) => {
    const headers = new Headers(existing === null ? {} : { vary: existing });
    patchVaryHeaders(headers, add);
    expect(headers.get('vary')).toBe(expected);
  });

  it('adds nothing when there is nothing to add', () => {
    const headers = new Headers();
    patchVaryHeaders(headers, []);
    expect(headers.has('vary')).toBe(false);
  });
});
