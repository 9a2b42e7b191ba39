import { act, renderHook, waitFor } from '@testing-library/react';
import { useScreenWakeLock } from './use-screen-wake-lock';

/** A wake lock as the browser hands it out: released once, by the page or by the browser, saying so by an event. */
class FakeSentinel extends EventTarget {
  readonly type = 'screen';
  released = false;
  onrelease = null;
  async release() {
    if (this.released) return;
    this.released = true;
    this.dispatchEvent(new Event('release'));
  }
}

let visibility: DocumentVisibilityState = 'visible';
let sentinels: FakeSentinel[] = [];
const wakeLock = { request: jest.fn() };

/** The browser hides the page (the screen locked): it lets the lock go itself, then says the page is hidden. */
function hidePage() {
  visibility = 'hidden';
  for (const sentinel of sentinels) void sentinel.release();
  document.dispatchEvent(new Event('visibilitychange'));
}

function showPage() {
  visibility = 'visible';
  document.dispatchEvent(new Event('visibilitychange'));
}

const held = () => sentinels.filter((sentinel) => !sentinel.released);

describe('useScreenWakeLock', () => {
  beforeEach(() => {
    visibility = 'visible';
    sentinels = [];
    wakeLock.request.mockReset();
    wakeLock.request.mockImplementation(async (type: string) => {
      if (type !== 'screen') throw new TypeError(type);
      const sentinel = new FakeSentinel();
      sentinels.push(sentinel);
      return sentinel;
    });
    Object.defineProperty(navigator, 'wakeLock', { configurable: true, value: wakeLock });
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
  });

  afterEach(() => {
    delete (navigator as { wakeLock?: unknown }).wakeLock;
    delete (document as { visibilityState?: DocumentVisibilityState }).visibilityState;
  });

  it('keeps the screen on while wanted, and lets go when no longer wanted', async () => {
    const { result, rerender } = renderHook(({ wanted }) => useScreenWakeLock(wanted), {
      initialProps: { wanted: true },
    });
    expect(result.current.supported).toBe(true);
    await waitFor(() => expect(result.current.held).toBe(true));
    expect(wakeLock.request).toHaveBeenCalledWith('screen');
    expect(held()).toHaveLength(1);

    rerender({ wanted: false });
    expect(result.current.held).toBe(false);
    expect(held()).toHaveLength(0);
    expect(wakeLock.request).toHaveBeenCalledTimes(1);
  });

  it('asks again when the page is shown after the browser let the lock go on hiding it', async () => {
    const { result } = renderHook(() => useScreenWakeLock(true));
    await waitFor(() => expect(result.current.held).toBe(true));

    act(() => hidePage());
    expect(result.current.held).toBe(false);
    // Hidden: a lock cannot be had, so none is asked for.
    expect(wakeLock.request).toHaveBeenCalledTimes(1);

    act(() => showPage());
    await waitFor(() => expect(result.current.held).toBe(true));
    expect(wakeLock.request).toHaveBeenCalledTimes(2);
    expect(held()).toEqual([sentinels[1]]);
  });

  it('lets go itself when the page is hidden, whatever the browser does', async () => {
    const { result } = renderHook(() => useScreenWakeLock(true));
    await waitFor(() => expect(result.current.held).toBe(true));
    visibility = 'hidden';
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    expect(result.current.held).toBe(false);
    expect(held()).toEqual([]);
  });

  it('lets go when the page goes away', async () => {
    const { result, unmount } = renderHook(() => useScreenWakeLock(true));
    await waitFor(() => expect(result.current.held).toBe(true));
    unmount();
    expect(held()).toEqual([]);
    showPage();
    expect(wakeLock.request).toHaveBeenCalledTimes(1);
  });

  it('says when the browser refuses, and asks again when the page is next shown', async () => {
    wakeLock.request.mockRejectedValueOnce(new DOMException('Battery saver', 'NotAllowedError'));
    const { result } = renderHook(() => useScreenWakeLock(true));
    await waitFor(() => expect(result.current.refused).toBe(true));
    expect(result.current.held).toBe(false);

    act(() => hidePage());
    act(() => showPage());
    await waitFor(() => expect(result.current.held).toBe(true));
    expect(result.current.refused).toBe(false);
  });

  it('is not supported, and asks nothing, where the browser has no wake lock', () => {
    delete (navigator as { wakeLock?: unknown }).wakeLock;
    const { result } = renderHook(() => useScreenWakeLock(true));
    expect(result.current).toEqual({ supported: false, held: false, refused: false });
    expect(wakeLock.request).not.toHaveBeenCalled();
  });
});
