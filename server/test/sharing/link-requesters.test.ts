import type { DatabaseExecutor } from '../../src/db/open-database';
import { LinkRequesters } from '../../src/sharing/link-requesters';

/** A database that answers every lookup of a link's requester with `rows`, and counts the lookups. */
function countingDatabase(rows: { userId: string }[]) {
  const lookups = { count: 0 };
  const db = {
    select: () => {
      lookups.count += 1;
      return { from: () => ({ where: async () => rows }) };
    },
  } as unknown as DatabaseExecutor;
  return { db, lookups };
}

describe('LinkRequesters', () => {
  it('asks the database once per link, then answers from memory', async () => {
    const { db, lookups } = countingDatabase([{ userId: 'requester-1' }]);
    const requesters = new LinkRequesters(db);
    expect(await requesters.of('token-a')).toBe('requester-1');
    expect(await requesters.of('token-a')).toBe('requester-1');
    expect(lookups.count).toBe(1);
  });

  it('answers a link it was told of without asking the database', async () => {
    const { db, lookups } = countingDatabase([]);
    const requesters = new LinkRequesters(db);
    requesters.know('token-b', 'requester-2');
    expect(await requesters.of('token-b')).toBe('requester-2');
    expect(lookups.count).toBe(0);
  });

  it('keeps no answer for a link that names no request', async () => {
    const { db, lookups } = countingDatabase([]);
    const requesters = new LinkRequesters(db);
    expect(await requesters.of('token-c')).toBeUndefined();
    expect(await requesters.of('token-c')).toBeUndefined();
    expect(lookups.count).toBe(2);
  });
});
