import { act, renderHook, waitFor } from '@testing-library/react';
import { LIVE_POSITION_EVERY_MS } from '@kabari/shared/requests/live-sharing';
import { fakeApi } from '../../../../jest/fake-api';
import { LIVE_HEARD_EVERY_MS, NO_POSITION_GRACE_MS, useLiveSharing } from './use-live-sharing';

type Success = (position: GeolocationPosition) => void;
type Failure = (error: GeolocationPositionError) => void;

function fix(latitude: number): GeolocationPosition {
  return {
    coords: { latitude, longitude: 106.8, accuracy: 10 } as GeolocationCoordinates,
    timestamp: Date.now(),
  } as GeolocationPosition;
}

/** The page's visibility as the browser would change it: the phone locked (hidden), unlocked (visible). */
let visibility: DocumentVisibilityState = 'visible';
function showPage(state: DocumentVisibilityState) {
  visibility = state;
  document.dispatchEvent(new Event('visibilitychange'));
}

function failure(code: 1 | 2 | 3): GeolocationPositionError {
  return { code, message: '', PERMISSION_DENIED: 1, POSITION_UNAVAILABLE: 2, TIMEOUT: 3 } as GeolocationPositionError;
}

describe('useLiveSharing', () => {
  let onPosition: Success;
  let onError: Failure;
  let onCurrentPosition: Success | undefined;
  const geolocation = {
    watchPosition: jest.fn((success: Success, error: Failure) => {
      onPosition = success;
      onError = error;
      return 3;
    }),
    clearWatch: jest.fn(),
    getCurrentPosition: jest.fn((success: Success) => {
      onCurrentPosition = success;
    }),
  };

  beforeEach(() => {
    jest.useFakeTimers({ now: new Date('2026-11-24T10:00:00Z') });
    geolocation.watchPosition.mockClear();
    geolocation.clearWatch.mockClear();
    geolocation.getCurrentPosition.mockClear();
    onCurrentPosition = undefined;
    Object.defineProperty(navigator, 'geolocation', { configurable: true, value: geolocation });
    visibility = 'visible';
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
    // The server: positions accepted; the page's minute call answers the window it names (still open).
    fakeApi.on('post', '/api/v1/share/links/{token}/positions', { accepted: true, liveUntil: null });
    fakeApi.on('post', '/api/v1/share/links/{token}/live/heard', ({ liveUntil }) => ({ liveUntil }));
    fakeApi.on('post', '/api/v1/share/links/{token}/live/end', { liveUntil: null });
  });

  afterEach(() => {
    jest.useRealTimers();
    delete (document as { visibilityState?: DocumentVisibilityState }).visibilityState;
  });

  const posted = () =>
    fakeApi.calls('post', '/api/v1/share/links/{token}/positions').map((call) => [call.url, call.body.latitude]);
  // The calls that ended a live window early, with the window each named.
  const endedWindows = () =>
    fakeApi.calls('post', '/api/v1/share/links/{token}/live/end').map((call) => [call.url, call.body.liveUntil]);

  it('posts positions at most every 10 seconds, and ends by itself at its end time', async () => {
    const onEnded = jest.fn();
    const liveUntil = new Date(Date.now() + 15 * 60_000).toISOString();
    renderHook(() => useLiveSharing('tok', liveUntil, onEnded));
    expect(geolocation.watchPosition).toHaveBeenCalledTimes(1);

    await act(async () => onPosition(fix(-6.1)));
    act(() => jest.advanceTimersByTime(LIVE_POSITION_EVERY_MS / 2));
    await act(async () => onPosition(fix(-6.2)));
    expect(posted()).toEqual([['/api/v1/share/links/tok/positions', -6.1]]);
    act(() => jest.advanceTimersByTime(LIVE_POSITION_EVERY_MS / 2));
    await act(async () => onPosition(fix(-6.3)));
    expect(posted().map(([, latitude]) => latitude)).toEqual([-6.1, -6.3]);

    expect(onEnded).not.toHaveBeenCalled();
    act(() => jest.advanceTimersByTime(15 * 60_000));
    expect(onEnded).toHaveBeenCalledWith(undefined);
    expect(geolocation.clearWatch).toHaveBeenCalledWith(3);
    // Nothing more goes out afterwards.
    await act(async () => onPosition(fix(-6.4)));
    expect(posted()).toHaveLength(2);
    // The server ends the window at the same time by itself: nothing to tell it.
    expect(endedWindows()).toEqual([]);
  });

  it('stops, tells the server to end the live window, and says why when the browser withdraws permission', () => {
    const onEnded = jest.fn();
    const liveUntil = new Date(Date.now() + 60 * 60_000).toISOString();
    renderHook(() => useLiveSharing('tok', liveUntil, onEnded));
    act(() => onError(failure(1)));
    expect(onEnded).toHaveBeenCalledWith('denied');
    expect(geolocation.clearWatch).toHaveBeenCalledWith(3);
    expect(endedWindows()).toEqual([['/api/v1/share/links/tok/live/end', liveUntil]]);
    expect(fakeApi.calls('post', '/api/v1/share/links/{token}/live/end')[0]?.body.reason).toBe('denied');
    // A late error changes nothing.
    act(() => onError(failure(1)));
    expect(endedWindows()).toHaveLength(1);
    expect(onEnded).toHaveBeenCalledTimes(1);
  });

  it('ends live sharing when no position comes for a minute after an error (location turned off)', () => {
    const onEnded = jest.fn();
    const liveUntil = new Date(Date.now() + 60 * 60_000).toISOString();
    const { result } = renderHook(() => useLiveSharing('tok', liveUntil, onEnded));
    act(() => onError(failure(2)));
    expect(result.current.waiting).toBe('disabled');
    act(() => jest.advanceTimersByTime(NO_POSITION_GRACE_MS / 2));
    // Errors that keep coming do not put the end off.
    act(() => onError(failure(2)));
    expect(onEnded).not.toHaveBeenCalled();
    act(() => jest.advanceTimersByTime(NO_POSITION_GRACE_MS / 2));
    expect(onEnded).toHaveBeenCalledWith('disabled');
    expect(geolocation.clearWatch).toHaveBeenCalledWith(3);
    expect(endedWindows()).toEqual([['/api/v1/share/links/tok/live/end', liveUntil]]);
    expect(result.current.waiting).toBeNull();
  });

  it('does not end the window when the server has stopped taking positions (it knows)', async () => {
    fakeApi.on(
      'post',
      '/api/v1/share/links/{token}/positions',
      fakeApi.fail(409, 'You stopped sharing through this link.'),
    );
    const onEnded = jest.fn();
    renderHook(() => useLiveSharing('tok', new Date(Date.now() + 60 * 60_000).toISOString(), onEnded));
    await act(async () => onPosition(fix(-6.1)));
    expect(onEnded).toHaveBeenCalledWith(undefined);
    expect(endedWindows()).toEqual([]);
  });

  it('says why no position goes out while the device has none, and carries on when one comes', async () => {
    const onEnded = jest.fn();
    const { result } = renderHook(() =>
      useLiveSharing('tok', new Date(Date.now() + 60 * 60_000).toISOString(), onEnded),
    );
    act(() => onError(failure(2)));
    expect(result.current.waiting).toBe('disabled');
    act(() => onError(failure(3)));
    expect(result.current.waiting).toBe('failed');
    await act(async () => onPosition(fix(-6.1)));
    expect(result.current.waiting).toBeNull();
    expect(posted()).toHaveLength(1);
    // The position came in time: the minute's grace is over, and live sharing goes on.
    act(() => jest.advanceTimersByTime(NO_POSITION_GRACE_MS * 2));
    expect(onEnded).not.toHaveBeenCalled();
    expect(endedWindows()).toEqual([]);
  });

  it('ends at once, saying so, where the browser has no geolocation', () => {
    Object.defineProperty(navigator, 'geolocation', { configurable: true, value: undefined });
    const onEnded = jest.fn();
    const liveUntil = new Date(Date.now() + 60_000).toISOString();
    renderHook(() => useLiveSharing('tok', liveUntil, onEnded));
    expect(onEnded).toHaveBeenCalledWith('unsupported');
    expect(endedWindows()).toEqual([['/api/v1/share/links/tok/live/end', liveUntil]]);
  });

  it('tells the server once a minute that the page is still open, naming its window', async () => {
    const onEnded = jest.fn();
    const liveUntil = new Date(Date.now() + 60 * 60_000).toISOString();
    renderHook(() => useLiveSharing('tok', liveUntil, onEnded));
    const heard = () => fakeApi.calls('post', '/api/v1/share/links/{token}/live/heard');
    await act(async () => {
      jest.advanceTimersByTime(LIVE_HEARD_EVERY_MS - 1);
    });
    expect(heard()).toHaveLength(0);
    await act(async () => {
      jest.advanceTimersByTime(2 * LIVE_HEARD_EVERY_MS);
    });
    expect(heard()).toHaveLength(2);
    expect(heard()[0]?.body).toEqual({ liveUntil });
    expect(onEnded).not.toHaveBeenCalled();
  });

  it('stops, saying why, when the server ended the window while the page was not heard from (phone asleep)', async () => {
    const onEnded = jest.fn();
    const liveUntil = new Date(Date.now() + 60 * 60_000).toISOString();
    renderHook(() => useLiveSharing('tok', liveUntil, onEnded));
    fakeApi.on('post', '/api/v1/share/links/{token}/live/heard', { liveUntil: null });
    await act(async () => {
      jest.advanceTimersByTime(LIVE_HEARD_EVERY_MS);
    });
    expect(onEnded).toHaveBeenCalledWith('silent');
    expect(geolocation.clearWatch).toHaveBeenCalledWith(3);
    // The server ended it already: the page does not end it again.
    expect(endedWindows()).toEqual([]);
  });

  it('sends a position at once when the page is shown again, without waiting for the next one', async () => {
    const onEnded = jest.fn();
    const liveUntil = new Date(Date.now() + 60 * 60_000).toISOString();
    renderHook(() => useLiveSharing('tok', liveUntil, onEnded));
    await act(async () => onPosition(fix(-6.1)));
    const heard = () => fakeApi.calls('post', '/api/v1/share/links/{token}/live/heard');

    // The phone locked: nothing is asked of anyone.
    act(() => showPage('hidden'));
    expect(geolocation.getCurrentPosition).not.toHaveBeenCalled();
    expect(heard()).toHaveLength(0);

    // Unlocked well within the interval: a position is taken and sent all the same, the server asked first.
    act(() => jest.advanceTimersByTime(LIVE_POSITION_EVERY_MS / 5));
    act(() => showPage('visible'));
    expect(geolocation.getCurrentPosition).toHaveBeenCalledTimes(1);
    expect(heard().map((call) => call.body)).toEqual([{ liveUntil }]);
    await act(async () => onCurrentPosition?.(fix(-6.2)));
    await waitFor(() => expect(posted().map(([, latitude]) => latitude)).toEqual([-6.1, -6.2]));
    // It counts as the latest send: the watch's next position waits for the interval again.
    await act(async () => onPosition(fix(-6.3)));
    expect(posted()).toHaveLength(2);
    expect(onEnded).not.toHaveBeenCalled();
  });

  it('sends the watch’s position at once when it comes before the page’s own request is answered', async () => {
    const onEnded = jest.fn();
    const liveUntil = new Date(Date.now() + 60 * 60_000).toISOString();
    renderHook(() => useLiveSharing('tok', liveUntil, onEnded));
    await act(async () => onPosition(fix(-6.1)));
    act(() => showPage('hidden'));
    act(() => jest.advanceTimersByTime(LIVE_POSITION_EVERY_MS / 5));
    // Shown: the browser's last fix is too old for the page's request, which waits for the device's next fix; the
    // watch gets that fix first.
    act(() => showPage('visible'));
    await act(async () => onPosition(fix(-6.2)));
    await waitFor(() => expect(posted().map(([, latitude]) => latitude)).toEqual([-6.1, -6.2]));
    // The request's answer comes after: the requester has the position already, so nothing more goes.
    await act(async () => onCurrentPosition?.(fix(-6.3)));
    await act(async () => onPosition(fix(-6.4)));
    expect(posted()).toHaveLength(2);
    expect(onEnded).not.toHaveBeenCalled();
  });

  it('says the window ended as silent, and sends nothing, when it is shown after the server ended it', async () => {
    const onEnded = jest.fn();
    const liveUntil = new Date(Date.now() + 60 * 60_000).toISOString();
    renderHook(() => useLiveSharing('tok', liveUntil, onEnded));
    act(() => showPage('hidden'));
    // Asleep for longer than the server waits: it ended the window meanwhile.
    fakeApi.on('post', '/api/v1/share/links/{token}/live/heard', { liveUntil: null });
    act(() => showPage('visible'));
    await act(async () => onCurrentPosition?.(fix(-6.2)));
    await waitFor(() => expect(onEnded).toHaveBeenCalledWith('silent'));
    expect(geolocation.clearWatch).toHaveBeenCalledWith(3);
    expect(posted()).toEqual([]);
    expect(endedWindows()).toEqual([]);
  });

  it('says it ended at its time when shown after its end, the end timer not yet run', async () => {
    const onEnded = jest.fn();
    const liveUntil = new Date(Date.now() + 15 * 60_000).toISOString();
    renderHook(() => useLiveSharing('tok', liveUntil, onEnded));
    act(() => showPage('hidden'));
    // Timers stand still while the phone sleeps; its clock does not.
    jest.setSystemTime(Date.now() + 20 * 60_000);
    act(() => showPage('visible'));
    expect(onEnded).toHaveBeenCalledWith(undefined);
    expect(fakeApi.calls('post', '/api/v1/share/links/{token}/live/heard')).toEqual([]);
    expect(geolocation.getCurrentPosition).not.toHaveBeenCalled();
  });
});
