import { fetchLatestBuildId, reloadForNewBuild, reloadGuardMs, watchForNewBuild } from './latest-build';

describe('the latest-build check', () => {
  afterEach(() => jest.useRealTimers());

  it('reads the build id from /latest-build.json, asking the server each time', async () => {
    const fetchMock = jest.fn(async () => ({ ok: true, status: 200, json: async () => ({ buildId: 'b2' }) }));
    await expect(fetchLatestBuildId(fetchMock as unknown as typeof fetch)).resolves.toBe('b2');
    expect(fetchMock).toHaveBeenCalledWith('/latest-build.json', expect.objectContaining({ cache: 'no-store' }));
  });

  it('checks at once, then every interval, and offers the new build once', async () => {
    jest.useFakeTimers();
    const answers = ['b1', 'b1', 'b2', 'b3'];
    const fetchLatest = jest.fn(async () => answers.shift() ?? null);
    const onNewBuild = jest.fn();
    const stop = watchForNewBuild({ currentBuildId: 'b1', fetchLatest, onNewBuild, intervalMs: 1000 });
    await jest.advanceTimersByTimeAsync(0);
    expect(fetchLatest).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(1000);
    expect(onNewBuild).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1000);
    expect(onNewBuild).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(5000);
    expect(fetchLatest).toHaveBeenCalledTimes(3);
    expect(onNewBuild).toHaveBeenCalledTimes(1);
    stop();
  });

  it('only logs a failed check, and keeps checking', async () => {
    jest.useFakeTimers();
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    const fetchLatest = jest.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue('b2');
    const onNewBuild = jest.fn();
    const stop = watchForNewBuild({ currentBuildId: 'b1', fetchLatest, onNewBuild, intervalMs: 1000 });
    await jest.advanceTimersByTimeAsync(0);
    expect(warn).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(1000);
    expect(onNewBuild).toHaveBeenCalledTimes(1);
    stop();
  });

  it('checks again when the tab comes back into view', async () => {
    const fetchLatest = jest.fn(async () => 'b1');
    const stop = watchForNewBuild({ currentBuildId: 'b1', fetchLatest, onNewBuild: jest.fn(), intervalMs: 60_000 });
    document.dispatchEvent(new Event('visibilitychange'));
    await Promise.resolve();
    expect(fetchLatest).toHaveBeenCalledTimes(2);
    stop();
  });
});

describe('the reload guard (10 s)', () => {
  function memoryStorage() {
    const values = new Map<string, string>();
    return {
      getItem: (key: string) => values.get(key) ?? null,
      setItem: (key: string, value: string) => void values.set(key, value),
    };
  }

  it('reloads, but not again within 10 s, so a stale page cannot loop', () => {
    jest.spyOn(console, 'warn').mockImplementation(() => {});
    const storage = memoryStorage();
    const reload = jest.fn();
    expect(reloadForNewBuild(storage, 1_000_000, reload)).toBe(true);
    expect(reloadForNewBuild(storage, 1_000_000 + reloadGuardMs - 1, reload)).toBe(false);
    expect(reloadForNewBuild(storage, 1_000_000 + reloadGuardMs, reload)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });
});
