import { AccountCache } from '../../src/auth/account-cache';

describe('the account cache', () => {
  let now = 0;
  const cache = () => new AccountCache({ ttlMs: 5_000, maxEntries: 3, now: () => now });
  const owner = (value: { userId: string } | null) => value?.userId ?? null;

  beforeEach(() => {
    now = 1_000_000;
  });

  it('answers from memory until the entry is ttlMs old, then loads again', async () => {
    const subject = cache();
    const load = jest.fn(async () => ({ userId: 'u1' }));
    const loaded = await subject.get('session:a', load, owner);
    // From memory the value itself comes back, not a promise of it.
    expect(subject.get('session:a', load, owner)).toBe(loaded);
    expect(load).toHaveBeenCalledTimes(1);
    now += 4_999;
    await subject.get('session:a', load, owner);
    expect(load).toHaveBeenCalledTimes(1);
    now += 1;
    await subject.get('session:a', load, owner);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("forgets every entry of a user when a change to that user is announced, and no one else's", async () => {
    const subject = cache();
    const load = jest.fn(async (userId: string) => ({ userId }));
    await subject.get('session:a', () => load('u1'), owner);
    await subject.get('subscription:u1', () => load('u1'), owner);
    await subject.get('session:b', () => load('u2'), owner);
    subject.forgetUser('u1');
    expect(subject.size).toBe(1);
    await subject.get('session:a', () => load('u1'), owner);
    await subject.get('session:b', () => load('u2'), owner);
    expect(load).toHaveBeenCalledTimes(4);
  });

  it('does not keep a value read while a change to its user was announced (the read may predate the change)', async () => {
    const subject = cache();
    let finish!: (value: { userId: string }) => void;
    const pending = subject.get(
      'session:a',
      () => new Promise<{ userId: string }>((resolve) => (finish = resolve)),
      owner,
    );
    subject.forgetUser('u1');
    finish({ userId: 'u1' });
    await pending;
    expect(subject.size).toBe(0);

    // A change to somebody else does not stop it being kept.
    const other = subject.get(
      'session:a',
      () => new Promise<{ userId: string }>((resolve) => (finish = resolve)),
      owner,
    );
    subject.forgetUser('u2');
    finish({ userId: 'u1' });
    await other;
    expect(subject.size).toBe(1);
  });

  it('after a lost connection (clear) forgets everything, including what is being read', async () => {
    const subject = cache();
    await subject.get('session:a', async () => ({ userId: 'u1' }), owner);
    let finish!: (value: { userId: string }) => void;
    const pending = subject.get(
      'session:b',
      () => new Promise<{ userId: string }>((resolve) => (finish = resolve)),
      owner,
    );
    subject.clear();
    finish({ userId: 'u2' });
    await pending;
    expect(subject.size).toBe(0);
  });

  it('keeps at most maxEntries, dropping the oldest', async () => {
    const subject = cache();
    const load = jest.fn(async () => null);
    for (const key of ['a', 'b', 'c', 'd']) await subject.get(key, load, owner);
    expect(subject.size).toBe(3);
    await subject.get('a', load, owner);
    expect(load).toHaveBeenCalledTimes(5);
  });
});
