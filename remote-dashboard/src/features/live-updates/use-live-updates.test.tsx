import { act, render } from '@testing-library/react';
import type { LocationRequest, Position } from '@kabari/shared/requests/location-request';
import { useRequestHistoryStore } from '../../stores/request-history-store';
import { usePositionsStore } from '../../stores/positions-store';
import { FakeEventSource } from '../../../../jest/fake-event-source';
import { useLiveConnectionStore } from '../../stores/live-connection-store';
import { useLiveUpdates } from './use-live-updates';
import { locationRequest } from '../../../../jest/location-request';
// No answer is set: a call to the API from a live event fails the test.
import { fakeApi } from '../../../../jest/fake-api';

function Dashboard({ signedIn }: { signedIn: boolean }) {
  useLiveUpdates(signedIn);
  return null;
}

const pending = locationRequest();

const gps: Position = {
  id: 9,
  source: 'gps',
  latitude: -6.2,
  longitude: 106.8,
  accuracyMeters: 10,
  address: 'Menteng, Jakarta',
  recordedAt: '2026-11-22T05:00:00.000Z',
};

describe('useLiveUpdates', () => {
  const original = global.EventSource;

  beforeEach(() => {
    FakeEventSource.instances = [];
    global.EventSource = FakeEventSource as unknown as typeof EventSource;
    useRequestHistoryStore.setState({ items: [pending], total: 1, page: 1, loadState: 'success', selectedId: 'r1' });
    usePositionsStore.setState({ byRequest: { r1: { items: [], loadState: 'success' } } });
  });

  afterEach(() => {
    global.EventSource = original;
  });

  it('updates the history rows and the map as events arrive, and closes the stream on sign-out', () => {
    const { rerender } = render(<Dashboard signedIn />);
    const source = FakeEventSource.instances[0];
    expect(source).toBeDefined();
    act(() => source?.open());
    expect(useLiveConnectionStore.getState().connected).toBe(true);

    act(() => source?.emit('request', '1', { ...pending, status: 'ip_located' }));
    expect(useRequestHistoryStore.getState().items[0]?.status).toBe('ip_located');
    act(() => source?.emit('request', '2', { ...pending, status: 'gps_tracked', lastPosition: gps }));
    act(() => source?.emit('position', '3', { requestId: 'r1', position: gps }));
    expect(useRequestHistoryStore.getState().items[0]?.status).toBe('gps_tracked');
    expect(usePositionsStore.getState().byRequest['r1']?.items).toEqual([gps]);

    act(() => source?.emit('withdrawn', '4', { requestId: 'r1' }));
    expect(usePositionsStore.getState().byRequest['r1']?.items).toEqual([]);

    rerender(<Dashboard signedIn={false} />);
    expect(source?.readyState).toBe(FakeEventSource.CLOSED);
    expect(useLiveConnectionStore.getState().connected).toBeNull();
    expect(fakeApi.called()).toEqual([]);
  });

  it('keeps a link’s URL when its live event comes without one (the server stores none with its events)', () => {
    const link = {
      ...pending,
      id: 'l1',
      channel: 'link',
      target: null,
      title: 'Weekend',
      url: 'https://kabari.example/enter-link?token=abcdefghijklmnopqrstuvwxyz012345',
    } satisfies LocationRequest;
    useRequestHistoryStore.setState({ items: [link], total: 1, page: 1, loadState: 'success', selectedId: null });
    render(<Dashboard signedIn />);
    const source = FakeEventSource.instances[0];
    act(() => source?.open());
    act(() => source?.emit('request', '5', { ...link, url: null, openedTime: '2026-11-22T04:05:00.000Z' }));
    expect(useRequestHistoryStore.getState().items[0]).toEqual({
      ...link,
      openedTime: '2026-11-22T04:05:00.000Z',
    });
  });

  it('opens nothing for a visitor', () => {
    render(<Dashboard signedIn={false} />);
    expect(FakeEventSource.instances).toHaveLength(0);
  });
});
