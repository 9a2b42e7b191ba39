import { RequestListCache, type RequestListPage } from '../../src/requests/request-list-cache';

const pageOf = (id: string): RequestListPage => ({ items: [{ id } as RequestListPage['items'][number]], total: 1 });

describe('the request history cache', () => {
  let now = 0;
  const cache = () => new RequestListCache({ ttlMs: 5_000, maxEntries: 100, now: () => now });

  beforeEach(() => {
    now = 1_000_000;
  });

  it('keeps each page under its owner and its page, and never answers one user with another’s', async () => {
    const subject = cache();
    const alice = await subject.page('alice', 1, 10, async () => pageOf('a1'));
    const bob = await subject.page('bob', 1, 10, async () => pageOf('b1'));
    const load = jest.fn(async () => pageOf('never'));
    expect(subject.page('alice', 1, 10, load)).toBe(alice);
    expect(subject.page('bob', 1, 10, load)).toBe(bob);
    expect(load).not.toHaveBeenCalled();
    // Another page or size is another entry.
    expect((await subject.page('alice', 2, 10, async () => pageOf('a2'))).items[0]?.id).toBe('a2');
    expect((await subject.page('alice', 1, 20, async () => pageOf('a3'))).items[0]?.id).toBe('a3');
  });

  it('forgets a user’s pages on their list:<id> notice, and no one else’s; an event id is not such a notice', async () => {
    const subject = cache();
    await subject.page('alice', 1, 10, async () => pageOf('a1'));
    await subject.page('alice', 2, 10, async () => pageOf('a2'));
    await subject.page('bob', 1, 10, async () => pageOf('b1'));
    expect(subject.heard('1234')).toBe(false);
    expect(subject.size).toBe(3);
    expect(subject.heard('list:alice')).toBe(true);
    expect(subject.size).toBe(1);
    const load = jest.fn(async () => pageOf('a1 again'));
    expect((await subject.page('alice', 1, 10, load)).items[0]?.id).toBe('a1 again');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('does not keep a page read while a change to its owner was heard (the read may predate the change)', async () => {
    const subject = cache();
    let finish!: (page: RequestListPage) => void;
    const reading = subject.page('alice', 1, 10, () => new Promise<RequestListPage>((resolve) => (finish = resolve)));
    subject.heard('list:alice');
    finish(pageOf('old'));
    expect((await reading).items[0]?.id).toBe('old');
    expect(subject.size).toBe(0);
  });

  it('forgets everything when notices may have been missed, and anything after ttlMs', async () => {
    const subject = cache();
    await subject.page('alice', 1, 10, async () => pageOf('a1'));
    subject.clear();
    expect(subject.size).toBe(0);
    await subject.page('alice', 1, 10, async () => pageOf('a1'));
    now += 5_000;
    const load = jest.fn(async () => pageOf('a1 later'));
    expect((await subject.page('alice', 1, 10, load)).items[0]?.id).toBe('a1 later');
  });

  it('reads every page afresh while the listening connection is lost, and caches again once it is back', async () => {
    const subject = cache();
    await subject.page('alice', 1, 10, async () => pageOf('a1'));
    subject.pause();
    expect(subject.size).toBe(0);
    const load = jest.fn(async () => pageOf('a1 during'));
    await subject.page('alice', 1, 10, load);
    await subject.page('alice', 1, 10, load);
    expect(load).toHaveBeenCalledTimes(2);
    expect(subject.size).toBe(0);
    subject.clear();
    await subject.page('alice', 1, 10, load);
    await subject.page('alice', 1, 10, load);
    expect(load).toHaveBeenCalledTimes(3);
  });
});
