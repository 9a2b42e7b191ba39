import type { LocationRequest, Position } from '@kabari/shared/requests/location-request';
import { FakeEventSource } from '../../../../jest/fake-event-source';
import { connectLiveEvents, type LiveEventHandlers } from './live-events-client';

const position: Position = {
  id: 7,
  source: 'gps',
  latitude: -6.2,
  longitude: 106.8,
  accuracyMeters: 15,
  address: 'Menteng, Jakarta',
  recordedAt: '2026-11-22T05:00:00.000Z',
};

function handlers(): jest.Mocked<LiveEventHandlers> {
  return {
    onRequest: jest.fn(),
    onPosition: jest.fn(),
    onWithdrawn: jest.fn(),
    onResync: jest.fn(),
    onConnectionChange: jest.fn(),
  };
}

describe('connectLiveEvents', () => {
  const original = global.EventSource;

  beforeEach(() => {
    FakeEventSource.instances = [];
    global.EventSource = FakeEventSource as unknown as typeof EventSource;
    jest.useFakeTimers();
  });

  afterEach(() => {
    global.EventSource = original;
    jest.useRealTimers();
  });

  it('reloads what is shown when a new stream is ready, and resumes from its id', () => {
    const on = handlers();
    const connection = connectLiveEvents('', on);
    const first = FakeEventSource.instances[0];
    first?.open();
    first?.emit('ready', '41', {});
    expect(on.onResync).toHaveBeenCalledTimes(1);
    // Refused and closed (signed out for a moment, say): the new stream resumes after the ready id.
    first?.fail(true);
    jest.advanceTimersByTime(3_000);
    expect(FakeEventSource.instances[1]?.url).toBe('/api/v1/locate/events?lastEventId=41');
    connection.close();
  });

  it('does not apply an event twice when a replay overlaps what already came', () => {
    const on = handlers();
    const connection = connectLiveEvents('', on);
    const source = FakeEventSource.instances[0];
    source?.open();
    source?.emit('position', '5', { requestId: 'r1', position });
    source?.emit('position', '5', { requestId: 'r1', position });
    source?.emit('position', '4', { requestId: 'r1', position });
    source?.emit('position', '6', { requestId: 'r1', position: { ...position, id: '8' } });
    expect(on.onPosition).toHaveBeenCalledTimes(2);
    connection.close();
  });

  it('opens the stream with the cookie and hands each event to its handler', () => {
    const on = handlers();
    const connection = connectLiveEvents('', on);
    const source = FakeEventSource.instances[0];
    expect(source?.url).toBe('/api/v1/locate/events');
    expect(source?.init).toEqual({ withCredentials: true });
    source?.open();
    expect(on.onConnectionChange).toHaveBeenLastCalledWith(true);

    const request = { id: 'r1', status: 'ip_located' } as LocationRequest;
    source?.emit('request', '1', request);
    source?.emit('position', '2', { requestId: 'r1', position });
    source?.emit('withdrawn', '3', { requestId: 'r1' });
    source?.emit('resync', '4', {});
    expect(on.onRequest).toHaveBeenCalledWith(request);
    expect(on.onPosition).toHaveBeenCalledWith('r1', position);
    expect(on.onWithdrawn).toHaveBeenCalledWith('r1');
    expect(on.onResync).toHaveBeenCalledTimes(1);
    connection.close();
    expect(source?.readyState).toBe(FakeEventSource.CLOSED);
  });

  it('ignores malformed events', () => {
    const on = handlers();
    connectLiveEvents('', on);
    const source = FakeEventSource.instances[0];
    source?.emit('position', '5', { requestId: 'r1' });
    source?.emit('request', '6', 'not an object');
    expect(on.onPosition).not.toHaveBeenCalled();
    expect(on.onRequest).not.toHaveBeenCalled();
  });

  it('leaves an interrupted stream to the browser, and reopens a refused one after the last event received', () => {
    const on = handlers();
    const connection = connectLiveEvents('https://api.example.test', on);
    const first = FakeEventSource.instances[0];
    first?.open();
    first?.emit('position', '41', { requestId: 'r1', position });

    // Interrupted: EventSource reconnects by itself, sending Last-Event-ID.
    first?.fail(false);
    expect(on.onConnectionChange).toHaveBeenLastCalledWith(false);
    jest.advanceTimersByTime(60_000);
    expect(FakeEventSource.instances).toHaveLength(1);

    // Refused (EventSource gave up): a new stream later, resuming after event 41.
    first?.fail(true);
    jest.advanceTimersByTime(2_999);
    expect(FakeEventSource.instances).toHaveLength(1);
    jest.advanceTimersByTime(1);
    expect(FakeEventSource.instances[1]?.url).toBe('https://api.example.test/api/v1/locate/events?lastEventId=41');

    // Closed by the page: no more attempts.
    connection.close();
    FakeEventSource.instances[1]?.fail(true);
    jest.advanceTimersByTime(120_000);
    expect(FakeEventSource.instances).toHaveLength(2);
  });
});
