import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { renderRecipientPage } from '../../testing/render-recipient-page';
import { answerSharing, sharingLink } from '../../testing/share-fixtures';
import { fakeApi } from '../../../../jest/fake-api';
import { FakeEventSource } from '../../../../jest/fake-event-source';
import SharePage from './share-page';
import { DBIP_URL } from '@kabari/shared/geo/dbip-attribution';

const sharing = sharingLink;

/** A browser whose live watch the test can fail as when location permission is withdrawn. */
function watchThatFails(): () => void {
  let fail: ((error: GeolocationPositionError) => void) | undefined;
  Object.defineProperty(navigator, 'geolocation', {
    configurable: true,
    value: {
      getCurrentPosition: jest.fn(),
      watchPosition: jest.fn((_success: unknown, error: (error: GeolocationPositionError) => void) => {
        fail = error;
        return 9;
      }),
      clearWatch: jest.fn(),
    },
  });
  return () =>
    fail?.({ code: 1, PERMISSION_DENIED: 1, POSITION_UNAVAILABLE: 2, TIMEOUT: 3 } as GeolocationPositionError);
}

describe('SharePage', () => {
  beforeEach(() => {
    Object.defineProperty(navigator, 'geolocation', {
      configurable: true,
      value: { getCurrentPosition: jest.fn(), watchPosition: jest.fn(() => 7), clearWatch: jest.fn() },
    });
  });

  it('says what was shared with whom, turns live sharing on until a time, and stops', async () => {
    const liveUntil = new Date(Date.now() + 15 * 60_000).toISOString();
    answerSharing();
    fakeApi.on('post', '/api/v1/share/links/{token}/live', { liveUntil });
    fakeApi.on('post', '/api/v1/share/links/{token}/stop', { state: 'stopped' });
    renderRecipientPage('/share?token=tok', SharePage);
    expect(
      await screen.findByRole('heading', { name: 'You shared your location with Budi Santoso.' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /IP Geolocation by DB-IP/ })).toHaveAttribute('href', DBIP_URL);

    fireEvent.click(screen.getByRole('button', { name: '15 minutes' }));
    expect(await screen.findByText(/^Live sharing is on until \d\d:\d\d\.$/)).toBeInTheDocument();
    expect(navigator.geolocation.watchPosition).toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Stop sharing' }));
    expect(await screen.findByRole('heading', { name: /You stopped sharing/ })).toBeInTheDocument();
    expect(navigator.geolocation.clearWatch).toHaveBeenCalledWith(7);
  });

  it('Stop and erase asks first, then says everything was erased (in Indonesian)', async () => {
    answerSharing();
    fakeApi.on('post', '/api/v1/share/links/{token}/withdraw', { state: 'withdrawn' });
    renderRecipientPage('/id/share?token=tok', SharePage);
    fireEvent.click(await screen.findByRole('button', { name: 'Berhenti dan hapus' }));
    fireEvent.click(screen.getByRole('button', { name: 'Ya, hentikan dan hapus' }));
    expect(await screen.findByRole('heading', { name: /sudah dihapus/ })).toBeInTheDocument();
  });

  it('says so when the link was no longer sharing by the time Stop sharing was pressed', async () => {
    answerSharing();
    fakeApi.on('post', '/api/v1/share/links/{token}/stop', fakeApi.fail(409, ''));
    renderRecipientPage('/share?token=tok', SharePage);
    fireEvent.click(await screen.findByRole('button', { name: 'Stop sharing' }));
    expect(await screen.findByRole('heading', { name: 'You are not sharing through this link.' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '15 minutes' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Back/ })).toBeInTheDocument();
  });

  it('says the link is invalid when the server does not know it, or that it could not be read', async () => {
    fakeApi.on('get', '/api/v1/share/links/{token}', fakeApi.fail(404, ''));
    const { unmount } = renderRecipientPage('/share?token=nope', SharePage);
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid link!');
    unmount();

    fakeApi.on('get', '/api/v1/share/links/{token}', fakeApi.fail(500, ''));
    renderRecipientPage('/share?token=tok', SharePage);
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong');
    expect(screen.queryByText('Invalid link!')).not.toBeInTheDocument();
  });

  it('writes the approximate place in the page’s language', async () => {
    sessionStorage.setItem(
      'kabari-share:tok-place',
      JSON.stringify({
        approximateAddress: 'Mountain View, California, United States',
        approximatePlace: { name: 'Mountain View', region: 'California', countryCode: 'US' },
        approximateKnown: true,
        preciseAccuracy: null,
      }),
    );
    answerSharing();
    renderRecipientPage('/id/share?token=tok-place', SharePage);
    expect(await screen.findByText(/Mountain View, California, Amerika Serikat/)).toBeInTheDocument();
  });

  it('says that live sharing stopped, and why, when the browser withdraws permission (in Indonesian)', async () => {
    const withdrawPermission = watchThatFails();
    const liveUntil = new Date(Date.now() + 60 * 60_000).toISOString();
    answerSharing({ ...sharing, liveUntil });
    fakeApi.on('post', '/api/v1/share/links/{token}/live/end', { liveUntil: null });
    renderRecipientPage('/id/share?token=tok', SharePage);
    expect(await screen.findByText(/^Berbagi langsung aktif sampai pukul/)).toBeInTheDocument();
    act(withdrawPermission);
    expect(await screen.findByText(/^Berbagi langsung berhenti: Izin lokasi ditolak/)).toBeInTheDocument();
    expect(screen.getByText(/Budi Santoso melihat bahwa berbagi langsung sudah berakhir/)).toBeInTheDocument();
    // The server ends the window too, so the requester's live badge goes off.
    expect(fakeApi.calls('post', '/api/v1/share/links/{token}/live/end').map((call) => call.body)).toEqual([
      { liveUntil, reason: 'denied' },
    ]);
  });

  it('says while live that positions go out only while the page is open, and when location is allowed again', async () => {
    const withdrawPermission = watchThatFails();
    // The browser's permission, which the recipient may give again in its settings.
    const permission = Object.assign(new EventTarget(), { state: 'denied' as PermissionState });
    Object.defineProperty(navigator, 'permissions', {
      configurable: true,
      value: { query: jest.fn(async () => permission) },
    });
    const liveUntil = new Date(Date.now() + 60 * 60_000).toISOString();
    answerSharing({ ...sharing, liveUntil });
    fakeApi.on('post', '/api/v1/share/links/{token}/live', { liveUntil });
    fakeApi.on('post', '/api/v1/share/links/{token}/live/end', { liveUntil: null });
    try {
      renderRecipientPage('/share?token=tok', SharePage);
      expect(await screen.findByText(/^Live sharing is on until \d\d:\d\d\.$/)).toBeInTheDocument();
      expect(
        screen.getByText('Your position is sent while this page stays open. Closing it stops sending.'),
      ).toBeInTheDocument();

      act(withdrawPermission);
      expect(await screen.findByText(/^Live sharing stopped: User denied location permission/)).toBeInTheDocument();
      expect(screen.queryByText(/while this page stays open/)).not.toBeInTheDocument();
      expect(screen.queryByText(/Location is allowed again/)).not.toBeInTheDocument();
      await act(async () => {
        permission.state = 'granted';
        permission.dispatchEvent(new Event('change'));
      });
      expect(screen.getByText('Location is allowed again: choose a time to share live again.')).toBeInTheDocument();

      fireEvent.click(screen.getByRole('button', { name: '1 hour' }));
      expect(await screen.findByText(/^Live sharing is on until/)).toBeInTheDocument();
      expect(screen.queryByText(/Location is allowed again/)).not.toBeInTheDocument();
    } finally {
      Object.defineProperty(navigator, 'permissions', { configurable: true, value: undefined });
    }
  });

  describe('keeping the screen on while live', () => {
    let sentinels: (EventTarget & { released: boolean; release: () => Promise<void> })[] = [];
    const request = jest.fn(async () => {
      const sentinel = Object.assign(new EventTarget(), {
        released: false,
        async release() {
          sentinel.released = true;
          sentinel.dispatchEvent(new Event('release'));
        },
      });
      sentinels.push(sentinel);
      return sentinel;
    });
    const held = () => sentinels.filter((sentinel) => !sentinel.released).length;

    beforeEach(() => {
      sentinels = [];
      request.mockClear();
      Object.defineProperty(navigator, 'wakeLock', { configurable: true, value: { request } });
    });
    afterEach(() => {
      delete (navigator as { wakeLock?: unknown }).wakeLock;
    });

    it('is on by default, says that locking the phone pauses sharing, and can be turned off and on', async () => {
      answerSharing({ ...sharing, liveUntil: new Date(Date.now() + 60 * 60_000).toISOString() });
      renderRecipientPage('/share?token=tok', SharePage);
      const keepOn = await screen.findByRole('switch', { name: 'Keep the screen on' });
      expect(keepOn).toBeChecked();
      await waitFor(() => expect(held()).toBe(1));
      expect(request).toHaveBeenCalledWith('screen');
      expect(
        screen.getByText(
          'Locking the phone pauses sharing; if it stays locked for about 2 minutes, live sharing stops.',
        ),
      ).toBeInTheDocument();

      fireEvent.click(keepOn);
      expect(keepOn).not.toBeChecked();
      expect(held()).toBe(0);
      fireEvent.click(keepOn);
      await waitFor(() => expect(held()).toBe(1));
    });

    it('lets the screen go when live sharing ends (in Indonesian)', async () => {
      fakeApi.on('post', '/api/v1/share/links/{token}/stop', { state: 'stopped' });
      answerSharing({ ...sharing, liveUntil: new Date(Date.now() + 60 * 60_000).toISOString() });
      renderRecipientPage('/id/share?token=tok', SharePage);
      expect(await screen.findByRole('switch', { name: 'Biarkan layar tetap menyala' })).toBeChecked();
      await waitFor(() => expect(held()).toBe(1));
      fireEvent.click(screen.getByRole('button', { name: 'Berhenti berbagi' }));
      await waitFor(() => expect(held()).toBe(0));
      expect(screen.queryByRole('switch')).not.toBeInTheDocument();
    });

    it('says so when the phone refuses', async () => {
      request.mockRejectedValueOnce(new DOMException('Battery saver', 'NotAllowedError'));
      answerSharing({ ...sharing, liveUntil: new Date(Date.now() + 60 * 60_000).toISOString() });
      renderRecipientPage('/share?token=tok', SharePage);
      expect(await screen.findByText(/^This phone did not allow the screen to stay on\./)).toBeInTheDocument();
    });

    it('is not offered where the browser cannot keep the screen on, nor in the server’s HTML', async () => {
      delete (navigator as { wakeLock?: unknown }).wakeLock;
      const liveUntil = new Date(Date.now() + 60 * 60_000).toISOString();
      answerSharing({ ...sharing, liveUntil });
      renderRecipientPage('/share?token=tok', SharePage);
      expect(await screen.findByText(/^Live sharing is on until/)).toBeInTheDocument();
      expect(screen.getByText(/^Locking the phone pauses sharing/)).toBeInTheDocument();
      expect(screen.queryByRole('switch')).not.toBeInTheDocument();

      Object.defineProperty(navigator, 'wakeLock', { configurable: true, value: { request } });
      const link = { kind: 'ready' as const, link: { ...sharing, state: 'sharing' as const, liveUntil } };
      const html = renderToString(<SharePage location={{ pathname: '/share', search: '?token=tok' }} link={link} />);
      expect(html).toContain('Locking the phone pauses sharing');
      expect(html).not.toContain('role="switch"');
      expect(request).not.toHaveBeenCalled();
    });
  });

  it('asks the browser for the position after a Share sent before the consent page’s script ran (locate=1)', async () => {
    const getCurrentPosition = jest.fn((success: PositionCallback) =>
      success({
        coords: { latitude: -6.2, longitude: 106.8, accuracy: 12 },
        timestamp: Date.now(),
      } as GeolocationPosition),
    );
    Object.defineProperty(navigator, 'geolocation', {
      configurable: true,
      value: { getCurrentPosition, watchPosition: jest.fn(), clearWatch: jest.fn() },
    });
    answerSharing({ ...sharing, shared: { approximate: true, precise: false } });
    fakeApi.on('post', '/api/v1/share/links/{token}/positions', { accepted: true, liveUntil: null });
    const { navigate } = renderRecipientPage('/share?token=tok-locate&locate=1', SharePage);
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/share?token=tok-locate', { replace: true }));
    const [posted] = fakeApi.calls('post', '/api/v1/share/links/{token}/positions');
    expect(posted?.body).toMatchObject({ latitude: -6.2, longitude: 106.8, accuracy: 12 });
    sessionStorage.clear();
  });

  it("after the plain form's Share, names the approximate place the server found, from its first HTML", () => {
    const ready = (approximate: boolean) => ({
      kind: 'ready' as const,
      link: {
        ...sharing,
        channel: 'link' as const,
        state: 'sharing' as const,
        shared: { approximate, precise: false },
      },
    });
    const link = ready(true);
    const shared = {
      approximateAddress: 'Bogor, West Java, Indonesia',
      approximatePlace: { name: 'Bogor', region: 'West Java', countryCode: 'ID', distanceKm: null },
      approximateKnown: true,
      preciseAccuracy: null,
    };
    const html = (search: string, pathname = '/id/share') =>
      renderToString(<SharePage location={{ pathname, search }} link={link} shared={shared} />);
    expect(html('?token=tok')).toContain(
      'Perkiraan lokasi Anda: Bogor, West Java, Indonesia (dari alamat jaringan Anda).',
    );
    // Without the server's account (another browser holding the link), the place is not named.
    expect(renderToString(<SharePage location={{ pathname: '/share', search: '?token=tok' }} link={link} />)).toContain(
      'Your approximate place, from your network address.',
    );
    // Found nothing: it says so.
    expect(
      renderToString(
        <SharePage
          location={{ pathname: '/share', search: '?token=tok' }}
          link={ready(false)}
          shared={{ ...shared, approximateAddress: null, approximatePlace: null, approximateKnown: false }}
        />,
      ),
    ).toContain('Your approximate place could not be found from your network address.');
  });

  it('goes to /location-failed when the browser then refuses (in Indonesian)', async () => {
    Object.defineProperty(navigator, 'geolocation', {
      configurable: true,
      value: {
        getCurrentPosition: jest.fn((_success: PositionCallback, failure: PositionErrorCallback) =>
          failure({ code: 1, PERMISSION_DENIED: 1, POSITION_UNAVAILABLE: 2, TIMEOUT: 3 } as GeolocationPositionError),
        ),
        watchPosition: jest.fn(),
        clearWatch: jest.fn(),
      },
    });
    answerSharing({ ...sharing, shared: { approximate: true, precise: false } });
    const { navigate } = renderRecipientPage('/id/share?token=tok&locate=1', SharePage);
    await waitFor(() =>
      expect(navigate).toHaveBeenCalledWith('/id/location-failed?token=tok&reason=denied', { replace: true }),
    );
  });

  describe('while live, hearing its request end elsewhere', () => {
    const original = global.EventSource;
    beforeEach(() => {
      FakeEventSource.instances = [];
      global.EventSource = FakeEventSource as unknown as typeof EventSource;
    });
    afterEach(() => {
      global.EventSource = original;
    });

    it.each([
      ['/share?token=tok', 'This request has ended. Nothing more is shared through this link.'],
      ['/id/share?token=tok', 'Permintaan ini sudah berakhir. Tidak ada lagi yang dibagikan lewat tautan ini.'],
    ])('%s: says the request ended and stops watching the position', async (path, ended) => {
      const liveUntil = new Date(Date.now() + 15 * 60_000).toISOString();
      answerSharing({ ...sharing, liveUntil });
      renderRecipientPage(path, SharePage);
      await waitFor(() => expect(navigator.geolocation.watchPosition).toHaveBeenCalled());
      const source = FakeEventSource.instances[0];
      expect(source?.url).toBe('/api/v1/share/links/tok/events');
      act(() => source?.open());

      // The requester's account was suspended: the request is cancelled, and the page is told only that it changed.
      answerSharing({ ...sharing, state: 'cancelled', liveUntil: null });
      act(() => source?.emit('changed', '', {}));
      expect(await screen.findByRole('heading', { name: ended })).toBeInTheDocument();
      expect(navigator.geolocation.clearWatch).toHaveBeenCalledWith(7);
      expect(source?.readyState).toBe(FakeEventSource.CLOSED);
    });

    it('asks again when the browser could not open the stream (the link ended meanwhile)', async () => {
      answerSharing();
      renderRecipientPage('/share?token=tok', SharePage);
      await screen.findByRole('heading', { name: 'You shared your location with Budi Santoso.' });
      answerSharing({ ...sharing, state: 'cancelled' });
      act(() => FakeEventSource.instances[0]?.fail(true));
      expect(
        await screen.findByRole('heading', {
          name: 'This request has ended. Nothing more is shared through this link.',
        }),
      ).toBeInTheDocument();
    });
  });
});
