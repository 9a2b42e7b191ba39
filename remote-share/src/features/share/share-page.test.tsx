import { act, fireEvent, screen } from '@testing-library/react';
import { renderAt } from '../../../../jest/render-with-i18n';
import SharePage from './share-page';

const sharing = {
  requesterName: 'Budi Santoso',
  channel: 'link',
  state: 'sharing',
  expiresAt: '2030-01-01T10:00:00.000Z',
  liveUntil: null,
  canOptOut: false,
  shared: { approximate: true, precise: true },
};

function reply(data: unknown) {
  return { ok: true, status: 200, statusText: 'ok', json: async () => ({ status: 200, message: 'ok', data }) };
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
    global.fetch = jest.fn(async (url: string) => {
      if (url.endsWith('/live')) return reply({ liveUntil });
      if (url.endsWith('/stop')) return reply({ state: 'stopped' });
      return reply(sharing);
    }) as unknown as typeof fetch;
    await renderAt('/share?token=tok', <SharePage />);
    expect(
      await screen.findByRole('heading', { name: 'You shared your location with Budi Santoso.' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /IP Geolocation by DB-IP/ })).toHaveAttribute('href', 'https://db-ip.com/');

    fireEvent.click(screen.getByRole('button', { name: '15 minutes' }));
    expect(await screen.findByText(/^Live sharing is on until \d\d:\d\d\.$/)).toBeInTheDocument();
    expect(navigator.geolocation.watchPosition).toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Stop sharing' }));
    expect(await screen.findByRole('heading', { name: /You stopped sharing/ })).toBeInTheDocument();
    expect(navigator.geolocation.clearWatch).toHaveBeenCalledWith(7);
  });

  it('Stop and erase asks first, then says everything was erased (in Indonesian)', async () => {
    global.fetch = jest.fn(async (url: string) =>
      url.endsWith('/withdraw') ? reply({ state: 'withdrawn' }) : reply(sharing),
    ) as unknown as typeof fetch;
    await renderAt('/id/share?token=tok', <SharePage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Berhenti dan hapus' }));
    fireEvent.click(screen.getByRole('button', { name: 'Ya, hentikan dan hapus' }));
    expect(await screen.findByRole('heading', { name: /sudah dihapus/ })).toBeInTheDocument();
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
    global.fetch = jest.fn(async () => reply(sharing)) as unknown as typeof fetch;
    await renderAt('/id/share?token=tok-place', <SharePage />);
    expect(await screen.findByText(/Mountain View, California, Amerika Serikat/)).toBeInTheDocument();
  });

  it('says that live sharing stopped, and why, when the browser withdraws permission (in Indonesian)', async () => {
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
    const liveUntil = new Date(Date.now() + 60 * 60_000).toISOString();
    global.fetch = jest.fn(async () => reply({ ...sharing, liveUntil })) as unknown as typeof fetch;
    await renderAt('/id/share?token=tok', <SharePage />);
    expect(await screen.findByText(/^Berbagi langsung aktif sampai pukul/)).toBeInTheDocument();
    act(() =>
      fail?.({ code: 1, PERMISSION_DENIED: 1, POSITION_UNAVAILABLE: 2, TIMEOUT: 3 } as GeolocationPositionError),
    );
    expect(await screen.findByText(/^Berbagi langsung berhenti: Izin lokasi ditolak/)).toBeInTheDocument();
  });
});
