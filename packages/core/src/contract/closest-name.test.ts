import { describe, expect, it } from 'vitest';
import { closestName } from './closest-name.js';

describe('closestName', () => {
  const columns = ['id', 'created_at', 'title', 'view_count', 'author_id'];

  it('finds the column a misspelling meant, letter case and underscores aside', () => {
    expect(closestName('createdAt', columns)).toBe('created_at');
    expect(closestName('CREATED_AT', columns)).toBe('created_at');
    expect(closestName('titel', columns)).toBe('title');
    expect(closestName('viewcnt', columns)).toBe('view_count');
    expect(closestName('ids', columns)).toBe('id');
  });

  it('prefers the nearer of two, then the one spelt closer', () => {
    expect(closestName('author', ['authors', 'author_id'])).toBe('authors');
    expect(closestName('createdAT', ['created_at', 'createdAt'])).toBe('createdAt');
  });

  it('guesses nothing when nothing is near, and never the name itself', () => {
    expect(closestName('published', columns)).toBeUndefined();
    expect(closestName('x', columns)).toBeUndefined();
    expect(closestName('id', ['id'])).toBeUndefined();
    expect(closestName('a'.repeat(200), ['a'.repeat(200) + 'b'])).toBeUndefined();
  });
});
