import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { LocationRequest, Position } from '@kabari/shared/requests/location-request';
import { renderAt } from '../../../../jest/render-with-i18n';
import { useLiveConnectionStore } from '../../stores/live-connection-store';
import { useRequestHistoryStore } from '../../stores/request-history-store';
import { LiveMap } from './live-map';
import { LiveMapPanel } from './live-map-panel';
import { usePositionsStore } from '../../stores/positions-store';
import { MAP_VIEW_EVERY_MS } from './use-map-view';
import { DBIP_URL } from '@kabari/shared/geo/dbip-attribution';
import { locationRequest } from '../../../../jest/location-request';
import { fakeApi } from '../../../../jest/fake-api';

jest.mock('./map-tiles', () => ({
  loadMapTiles: () =>
    Promise.resolve({ tileUrl: 'https://tiles.example.test/{z}/{x}/{y}.png', tileAttribution: 'Example tiles' }),
}));
const positionsPath = '/api/v1/requests/{id}/positions';
const viewsPath = '/api/v1/requests/{id}/views';
const positionsAnswer = (items: Position[]) => fakeApi.on('get', positionsPath, { items });
const fetched = () => fakeApi.calls('get', positionsPath);
const viewsSent = () => fakeApi.calls('post', viewsPath);
jest.setTimeout(30_000);

const ipPosition: Position = {
  id: 1,
  source: 'ip',
  latitude: -6.17,
  longitude: 106.83,
  accuracyMeters: 5000,
  address: 'Jakarta, Indonesia',
  recordedAt: '2026-11-22T05:00:00.000Z',
};
const gpsPosition: Position = {
  id: 2,
  source: 'gps',
  latitude: -6.1954,
  longitude: 106.8227,
  accuracyMeters: 12,
  address: 'Menteng, Jakarta Pusat',
  recordedAt: '2026-11-22T05:00:20.000Z',
};

function request(changes: Partial<LocationRequest> = {}): LocationRequest {
  return locationRequest({
    channel: 'link',
    target: null,
    title: 'Mum',
    url: 'https://kabari.example/enter-link?token=x',
    status: 'ip_located',
    consent: 'sharing',
    delivery: null,
    requestTime: '2026-11-22T04:59:00.000Z',
    openedTime: '2026-11-22T04:59:30.000Z',
    locatedTime: '2026-11-22T05:00:00.000Z',
    expiresAt: '2026-11-23T04:59:00.000Z',
    lastPosition: ipPosition,
    ...changes,
  });
}

describe('the live map', () => {
  beforeEach(() => {
    fakeApi.on('post', viewsPath, { viewId: 41 });
    usePositionsStore.setState({ byRequest: {} });
    useLiveConnectionStore.setState({ connected: true });
  });

  it('shows the approximate place with its source and the DB-IP attribution, then the GPS position as it arrives', async () => {
    positionsAnswer([ipPosition]);
    await renderAt('/dashboard', <LiveMap request={request()} locale="en" />);

    expect(await screen.findByTestId('live-map-address')).toHaveTextContent('Jakarta, Indonesia');
    expect(screen.getByRole('heading', { name: 'Location map: Mum' })).toBeInTheDocument();
    const source = screen.getByTestId('live-map-source');
    expect(source).toHaveTextContent('Approximate, from the IP address');
    expect(within(source).getByRole('link', { name: 'IP location by DB-IP' })).toHaveAttribute('href', DBIP_URL);
    expect(screen.getByText('within about 5,000 m')).toBeInTheDocument();
    expect(screen.queryByTestId('live-badge')).not.toBeInTheDocument();
    const map = await screen.findByRole('region', { name: 'Map of the shared location' });
    await waitFor(() => expect(map.querySelector('.live-map__marker')).not.toBeNull());
    expect(fetched().map((call) => call.path)).toEqual([{ id: 'r1' }]);

    act(() => usePositionsStore.getState().addPosition('r1', gpsPosition));
    expect(screen.getByTestId('live-map-address')).toHaveTextContent('Menteng, Jakarta Pusat');
    expect(screen.getByTestId('live-map-source')).toHaveTextContent("GPS, from the recipient's device");
    expect(within(screen.getByTestId('live-map-source')).queryByRole('link')).not.toBeInTheDocument();
    expect(screen.getByText('2 positions on the trail')).toBeInTheDocument();
  });

  it('shows a live badge and the end of a live share, in Indonesian too', async () => {
    positionsAnswer([gpsPosition]);
    const liveUntil = new Date(Date.now() + 60 * 60 * 1000).toISOString();
    await renderAt(
      '/id/dashboard',
      <LiveMap request={request({ status: 'gps_tracked', liveUntil, lastPosition: gpsPosition })} locale="id" />,
    );
    expect(await screen.findByTestId('live-badge')).toHaveTextContent('Langsung');
    expect(
      screen.getByText(/^Berbagi lokasi langsung paling lambat hingga .+\. Posisi baru berhenti/),
    ).toBeInTheDocument();
    expect(screen.getByTestId('live-map-source')).toHaveTextContent('GPS, dari perangkat penerima');
    // The position is days old, while one is expected every few seconds: its age is written, and marked old.
    expect(screen.getByTestId('live-map-age')).toHaveTextContent(/^\d+ hari yang lalu$/);
    expect(screen.getByTestId('live-map-old')).toHaveTextContent('Sudah lama: belum ada posisi yang lebih baru');
  });

  it('takes the live badge off as soon as a live event says the recipient’s live sharing ended early', async () => {
    positionsAnswer([gpsPosition]);
    const liveUntil = new Date(Date.now() + 60 * 60 * 1000).toISOString();
    useRequestHistoryStore.setState({
      items: [request({ status: 'gps_tracked', liveUntil, lastPosition: gpsPosition })],
      selectedId: 'r1',
    });
    await renderAt('/dashboard', <LiveMapPanel locale="en" />);
    expect(await screen.findByTestId('live-badge')).toHaveTextContent('Live');
    expect(screen.getByText(/^Sharing live until .+ at the latest\./)).toBeInTheDocument();
    expect(screen.getByTestId('live-map-old')).toHaveTextContent('Old: no newer position has come yet');

    // The request event the server publishes when the recipient's page ends the live window.
    act(() =>
      useRequestHistoryStore
        .getState()
        .upsertRequest(request({ status: 'gps_tracked', liveUntil: null, lastPosition: gpsPosition })),
    );
    expect(screen.queryByTestId('live-badge')).not.toBeInTheDocument();
    expect(screen.queryByText(/^Sharing live until/)).not.toBeInTheDocument();
    // What was shared stays on the map, with its age; nothing more is expected, so it is not marked old.
    expect(screen.getByTestId('live-map-address')).toHaveTextContent('Menteng, Jakarta Pusat');
    expect(screen.getByTestId('live-map-age')).toHaveTextContent(/^\d+ days ago$/);
    expect(screen.queryByTestId('live-map-old')).not.toBeInTheDocument();
  });

  it('writes the address in the page’s language from the place’s parts, and an older position as stored', async () => {
    const placed: Position = {
      ...gpsPosition,
      id: 3,
      address: '12 km from Bogor, Indonesia',
      place: { name: 'Bogor', countryCode: 'ID', distanceKm: 12 },
    };
    positionsAnswer([ipPosition, placed]);
    await renderAt(
      '/id/dashboard',
      <LiveMap request={request({ status: 'gps_tracked', lastPosition: placed })} locale="id" />,
    );
    expect(await screen.findByTestId('live-map-address')).toHaveTextContent('12 km dari Bogor, Indonesia');
    act(() =>
      usePositionsStore.getState().addPosition('r1', { ...ipPosition, id: 4, recordedAt: '2026-11-22T05:01:00.000Z' }),
    );
    expect(screen.getByTestId('live-map-address')).toHaveTextContent('Jakarta, Indonesia');
  });

  it('plays the voice note sent and the recipient’s voice reply beside the positions, in Indonesian too', async () => {
    const voice = {
      voiceNote: {
        id: 'n1',
        durationMs: 8_000,
        mediaType: 'audio/webm' as const,
        text: 'It is me',
        recordedTime: '2026-11-22T04:58:00.000Z',
      },
      voiceReply: {
        id: 'n2',
        durationMs: 65_000,
        mediaType: 'audio/ogg' as const,
        text: null,
        recordedTime: '2026-11-22T05:01:00.000Z',
      },
    };
    positionsAnswer([ipPosition]);
    await renderAt('/id/dashboard', <LiveMap request={request(voice)} locale="id" />);
    await waitFor(() => expect(fetched()).toHaveLength(1));
    const reply = screen.getByLabelText(/^Balasan suara dari Mum, 1:05, direkam /, { selector: 'audio' });
    expect(reply).toHaveAttribute('src', '/api/v1/voice-notes/n2/audio');
    expect(reply).toHaveAttribute('preload', 'none');
    const note = screen.getByLabelText('Pesan suara Anda, 0:08', { selector: 'audio' });
    expect(note).toHaveAttribute('src', '/api/v1/voice-notes/n1/audio');
    expect(screen.getByText('It is me')).toBeInTheDocument();
  });

  it('shows nothing but the withdrawal once consent is withdrawn', async () => {
    // What was shared before the withdrawal is still at hand: the request's last position and a loaded trail.
    usePositionsStore.setState({ byRequest: { r1: { items: [ipPosition, gpsPosition], loadState: 'success' } } });
    await renderAt('/dashboard', <LiveMap request={request({ consent: 'withdrawn' })} locale="en" />);
    expect(screen.getByText('Consent withdrawn')).toBeInTheDocument();
    expect(screen.queryByTestId('live-map-address')).not.toBeInTheDocument();
    expect(screen.queryByText(/Jakarta/)).not.toBeInTheDocument();
    expect(screen.queryByTestId('live-map-source')).not.toBeInTheDocument();
    // Not the map either, nor its placeholder while it loads.
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(fakeApi.called()).toEqual([]);
  });

  it('says when nothing was shared yet, and offers a retry when the positions could not be loaded', async () => {
    const answers = [fakeApi.unreachable(), { items: [] }];
    fakeApi.on('get', positionsPath, () => answers.shift() ?? fakeApi.unreachable());
    await renderAt('/dashboard', <LiveMap request={request({ lastPosition: null, status: 'pending' })} locale="en" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(/Nothing has been shared for this request yet/)).toBeInTheDocument();
    expect(fetched()).toHaveLength(2);
    // The map says it itself: the API client does not toast it too.
    expect(fakeApi.effects.toastNetworkError).not.toHaveBeenCalled();
  });

  it('says when live updates pause', async () => {
    positionsAnswer([ipPosition]);
    useLiveConnectionStore.setState({ connected: false });
    await renderAt('/dashboard', <LiveMap request={request()} locale="en" />);
    expect(await screen.findByText('Live updates paused. Reconnecting…')).toBeInTheDocument();
  });

  it('tells the server the map is open while the recipient shares, every minute, and says the recipient sees it', async () => {
    positionsAnswer([ipPosition]);
    jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
    try {
      const { unmount } = await renderAt('/dashboard', <LiveMap request={request()} locale="en" />);
      expect(screen.getByText('The person sharing sees when you look at this map, and how often.')).toBeInTheDocument();
      await waitFor(() => expect(viewsSent()).toHaveLength(1));
      // A minute later: the same opening, still open.
      await act(async () => {
        jest.advanceTimersByTime(MAP_VIEW_EVERY_MS);
      });
      await waitFor(() => expect(viewsSent()).toHaveLength(2));
      expect(viewsSent().map((call) => [call.path, call.body])).toEqual([
        [{ id: 'r1' }, {}],
        [{ id: 'r1' }, { viewId: 41 }],
      ]);
      unmount();
      await act(async () => {
        jest.advanceTimersByTime(3 * MAP_VIEW_EVERY_MS);
      });
      expect(viewsSent()).toHaveLength(2);
    } finally {
      jest.useRealTimers();
    }
  });

  it('records no look at a request whose recipient does not share, and says nothing about it', async () => {
    positionsAnswer([]);
    await renderAt(
      '/dashboard',
      <LiveMap request={request({ consent: 'stopped', status: 'pending', lastPosition: null })} locale="en" />,
    );
    expect(await screen.findByText(/Nothing has been shared for this request yet/)).toBeInTheDocument();
    expect(screen.queryByText(/sees when you look/)).not.toBeInTheDocument();
    expect(fakeApi.called()).toEqual(['GET /api/v1/requests/{id}/positions']);
  });

  it('says when and why live sharing ended early, in both languages', async () => {
    positionsAnswer([gpsPosition]);
    const ended = request({
      status: 'gps_tracked',
      lastPosition: gpsPosition,
      liveEnd: { at: '2026-11-22T05:10:00.000Z', reason: 'silent' },
    });
    const { unmount } = await renderAt('/dashboard', <LiveMap request={ended} locale="en" />);
    expect(await screen.findByTestId('live-ended')).toHaveTextContent(
      /^Live sharing ended early \(.+\): the recipient's page stopped answering for 2 minutes \(closed, or the phone asleep\)\.$/,
    );
    expect(screen.queryByTestId('live-badge')).not.toBeInTheDocument();
    unmount();
    await renderAt(
      '/id/dashboard',
      <LiveMap request={{ ...ended, liveEnd: { at: ended.liveEnd!.at, reason: 'denied' } }} locale="id" />,
    );
    expect(await screen.findByTestId('live-ended')).toHaveTextContent(
      /^Berbagi langsung berakhir lebih awal \(.+\): penerima menonaktifkan akses lokasi untuk Kabari\.$/,
    );
  });
});
