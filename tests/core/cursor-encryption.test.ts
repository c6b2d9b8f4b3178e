import { fromArray } from '@pagewise/memory-adapter';
import {
  ApiRequest,
  ConfigurationError,
  CursorPagination,
  connectionFromQuery,
  cursorPage,
  decodeCursorAsync,
  encodeCursor,
  encodeCursorAsync,
  NotFound,
  paginateCursor,
  streamRows,
} from '@pagewise/rest';
import { describe, expect, it } from 'vitest';

// Encrypted cursors bound to time (issue 38 §4): `cursorEncryptionKey` (AES-256-GCM through Web
// Crypto, HKDF-SHA256 of a key of 32 characters or more; the first encrypts, every one decrypts;
// plain and signed tokens refused where it is set) and `cursorTtl` (needs a secret or a key).

const KEY = 'correct horse battery staple, 32+ chars';
const OLD_KEY = 'an older key that is long enough to use';
const rows = Array.from({ length: 30 }, (_, i) => ({ id: i + 1, score: (i * 7) % 5, secret_rank: 1000 - i }));
const query = () => fromArray(rows, { uniqueKey: 'id' });
const ordering = ['-secret_rank'];
const ids = (list: ReadonlyArray<{ id: number }>) => list.map((r) => r.id);
const tokenOf = (link: string | null) => (link === null ? null : new URL(link).searchParams.get('cursor'));
const invalid = new NotFound('Invalid cursor');

async function walk(options: Parameters<typeof paginateCursor>[1]): Promise<number[]> {
  const seen: number[] = [];
  let page = await paginateCursor(query(), options);
  seen.push(...ids(page.results));
  while (page.nextCursor !== null) {
    page = await paginateCursor(query(), { ...options, cursor: page.nextCursor });
    seen.push(...ids(page.results));
  }
  return seen;
}

describe('encrypted cursors', () => {
  it('paginateCursor walks every row once, forward and back, with tokens that show nothing of the position', async () => {
    const options = { pageSize: 4, ordering, cursorEncryptionKey: KEY };
    expect(await walk(options)).toEqual(ids(rows));
    const first = await paginateCursor(query(), options);
    const token = first.nextCursor!;
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    // A plain token of the same cursor is readable JSON; the encrypted one decodes to noise.
    const text = Buffer.from(token, 'base64url').toString('latin1');
    expect(text).not.toContain('997');
    expect(text).not.toContain('"k"');
    const second = await paginateCursor(query(), { ...options, cursor: token });
    const back = await paginateCursor(query(), { ...options, cursor: second.previousCursor });
    expect(ids(back.results)).toEqual(ids(first.results));
    // Each minting draws a fresh IV: the same page's link is another token each time.
    expect((await paginateCursor(query(), options)).nextCursor).not.toBe(token);
  });

  it('refuses altered, plain and signed tokens, and tokens under a key no longer listed', async () => {
    const options = { pageSize: 4, ordering, cursorEncryptionKey: KEY };
    const token = (await paginateCursor(query(), options)).nextCursor!;
    const flipped = `${token.slice(0, 20)}${token[20] === 'A' ? 'B' : 'A'}${token.slice(21)}`;
    const plain = (await paginateCursor(query(), { pageSize: 4, ordering })).nextCursor!;
    const signed = (await paginateCursor(query(), { pageSize: 4, ordering, cursorSecret: 's3cret' }))
      .nextCursor!;
    for (const cursor of [flipped, plain, signed, `${token}.x`, token.slice(0, 30)]) {
      await expect(paginateCursor(query(), { ...options, cursor }), cursor).rejects.toThrow(invalid);
    }
    await expect(
      paginateCursor(query(), { ...options, cursorEncryptionKey: OLD_KEY, cursor: token }),
    ).rejects.toThrow(invalid);
    // With a secret as well, tokens are still encrypted (GCM authenticates them): a signed one is refused.
    const both = { ...options, cursorSecret: 's3cret' };
    await expect(paginateCursor(query(), { ...both, cursor: signed })).rejects.toThrow(invalid);
    expect(ids((await paginateCursor(query(), { ...both, cursor: token })).results)).toEqual([5, 6, 7, 8]);
  });

  it('keys rotate: the first encrypts, every one decrypts', async () => {
    const old = await paginateCursor(query(), { pageSize: 4, ordering, cursorEncryptionKey: OLD_KEY });
    const rotated = await paginateCursor(query(), {
      pageSize: 4,
      ordering,
      cursorEncryptionKey: [KEY, OLD_KEY],
      cursor: old.nextCursor,
    });
    expect(ids(rotated.results)).toEqual([5, 6, 7, 8]);
    // Its links are under the new key alone.
    const next = { pageSize: 4, ordering, cursor: rotated.nextCursor };
    expect(ids((await paginateCursor(query(), { ...next, cursorEncryptionKey: KEY })).results)).toEqual([
      9, 10, 11, 12,
    ]);
    await expect(paginateCursor(query(), { ...next, cursorEncryptionKey: OLD_KEY })).rejects.toThrow(invalid);
  });

  it('a key shorter than 32 characters is a ConfigurationError, at construction for the class and at the call for functions', async () => {
    expect(() => new CursorPagination({ pageSize: 4, cursorEncryptionKey: 'short' })).toThrow(
      ConfigurationError,
    );
    expect(() => new CursorPagination({ pageSize: 4, cursorEncryptionKey: [KEY, 'x'.repeat(31)] })).toThrow(
      ConfigurationError,
    );
    expect(() => new CursorPagination({ pageSize: 4, cursorEncryptionKey: [] })).toThrow(ConfigurationError);
    await expect(paginateCursor(query(), { pageSize: 4, cursorEncryptionKey: 'short' })).rejects.toThrow(
      ConfigurationError,
    );
    await expect(
      cursorPage(query(), 'http://testserver/items', { pageSize: 4, cursorEncryptionKey: 'x'.repeat(31) }),
    ).rejects.toThrow(ConfigurationError);
    expect(() => new CursorPagination({ pageSize: 4, cursorEncryptionKey: 'x'.repeat(32) })).not.toThrow();
  });

  it('CursorPagination, connectionFromQuery and streamRows take the key', async () => {
    const pagination = new CursorPagination({ pageSize: 4, ordering, cursorEncryptionKey: [KEY, OLD_KEY] });
    const page = await pagination.paginate(query(), new ApiRequest({ url: 'http://testserver/items' }));
    const next = tokenOf(page!.next)!;
    const second = await pagination.paginate(query(), new ApiRequest({ url: page!.next! }));
    expect(ids(second!.rows)).toEqual([5, 6, 7, 8]);
    await expect(
      new CursorPagination({ pageSize: 4, ordering }).paginate(
        query(),
        new ApiRequest({ url: `http://testserver/items?cursor=${next}` }),
      ),
    ).rejects.toThrow(invalid);

    const connection = await connectionFromQuery(
      query(),
      { first: 3 },
      { ordering, cursorEncryptionKey: KEY },
    );
    const after = await connectionFromQuery(
      query(),
      { first: 3, after: connection.pageInfo.endCursor },
      { ordering, cursorEncryptionKey: [OLD_KEY, KEY] },
    );
    expect(after.edges.map((e) => e.node.id)).toEqual([4, 5, 6]);
    await expect(
      connectionFromQuery(query(), { first: 3, after: connection.pageInfo.endCursor }, { ordering }),
    ).rejects.toThrow(invalid);
    const streamed: number[] = [];
    for await (const row of streamRows(query(), {
      ordering,
      after: connection.edges[1]!.cursor,
      cursorEncryptionKey: KEY,
    })) {
      streamed.push(row.id);
    }
    expect(streamed).toEqual(ids(rows).slice(2));
  });

  it('the sync codec refuses an encryption key rather than minting an unencrypted token', async () => {
    const order = [{ field: 'id', direction: 'asc', nulls: 'last', unique: true }] as const;
    const cursor = { offset: 0, reverse: false, position: [7] };
    expect(() => encodeCursor(cursor, { order, encryptionKey: KEY })).toThrow(ConfigurationError);
    const token = await encodeCursorAsync(cursor, { order, encryptionKey: KEY });
    expect((await decodeCursorAsync(token, { order, encryptionKey: [OLD_KEY, KEY] })).position).toEqual([7]);
  });
});

describe('cursorTtl', () => {
  it('expires tokens older than the lifetime, signed or encrypted', async () => {
    const order = [{ field: 'id', direction: 'asc', nulls: 'last', unique: true }] as const;
    const cursor = { offset: 0, reverse: false, position: [7] };
    for (const protection of [{ secret: 's3cret' }, { encryptionKey: KEY }]) {
      const minted = await encodeCursorAsync(cursor, { order, ...protection, ttl: 60_000, now: 1_000_000 });
      const at = (now: number) => decodeCursorAsync(minted, { order, ...protection, ttl: 60_000, now });
      expect((await at(1_060_000)).position).toEqual([7]);
      await expect(at(1_060_001)).rejects.toThrow(/expired/);
      // A token minted without a lifetime never expires, so under one it is refused.
      const forever = await encodeCursorAsync(cursor, { order, ...protection });
      await expect(decodeCursorAsync(forever, { order, ...protection, ttl: 60_000 })).rejects.toThrow(
        /no time/,
      );
    }
  });

  it('paginateCursor and CursorPagination answer an expired token with Invalid cursor', async () => {
    const options = { pageSize: 4, ordering, cursorSecret: 's3cret', cursorTtl: 1 };
    const first = await paginateCursor(query(), options);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await expect(paginateCursor(query(), { ...options, cursor: first.nextCursor })).rejects.toThrow(invalid);
    const live = await paginateCursor(query(), { ...options, cursorTtl: 60_000 });
    expect(
      ids(
        (await paginateCursor(query(), { ...options, cursorTtl: 60_000, cursor: live.nextCursor })).results,
      ),
    ).toEqual([5, 6, 7, 8]);
    const pagination = new CursorPagination({
      pageSize: 4,
      ordering,
      cursorEncryptionKey: KEY,
      cursorTtl: 1,
    });
    const page = await pagination.paginate(query(), new ApiRequest({ url: 'http://testserver/items' }));
    await new Promise((resolve) => setTimeout(resolve, 5));
    await expect(pagination.paginate(query(), new ApiRequest({ url: page!.next! }))).rejects.toThrow(invalid);
  });

  it('needs a secret or a key: ConfigurationError at construction for the class, at the first call for functions', async () => {
    expect(() => new CursorPagination({ pageSize: 4, cursorTtl: 60_000 })).toThrow(ConfigurationError);
    expect(() => new CursorPagination({ pageSize: 4, cursorTtl: 60_000, cursorSecret: '' })).toThrow(
      ConfigurationError,
    );
    expect(() => new CursorPagination({ pageSize: 4, cursorTtl: 0, cursorSecret: 'k' })).toThrow(
      ConfigurationError,
    );
    class Subclassed extends CursorPagination {
      override pageSize = 4;
      override cursorTtl = 60_000;
    }
    const subclassed = new Subclassed();
    await expect(
      subclassed.paginate(query(), new ApiRequest({ url: 'http://testserver/items' })),
    ).rejects.toThrow(ConfigurationError);
    // The first call, token or not.
    await expect(paginateCursor(query(), { pageSize: 4, cursorTtl: 60_000 })).rejects.toThrow(
      ConfigurationError,
    );
    await expect(
      cursorPage(query(), 'http://testserver/items', { pageSize: 4, cursorTtl: 60_000 }),
    ).rejects.toThrow(ConfigurationError);
    await expect(connectionFromQuery(query(), { first: 2 }, { cursorTtl: 60_000 })).rejects.toThrow(
      ConfigurationError,
    );
    await expect(streamRows(query(), { cursorTtl: 60_000 })[Symbol.asyncIterator]().next()).rejects.toThrow(
      ConfigurationError,
    );
    expect(() => new CursorPagination({ pageSize: 4, cursorTtl: 60_000, cursorSecret: 'k' })).not.toThrow();
  });
});
