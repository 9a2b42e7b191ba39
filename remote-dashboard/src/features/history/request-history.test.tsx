import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { showToast } from '@kabari/shared/ui/toasts';
import type { LocationRequest } from '@kabari/shared/requests/location-request';
import { renderAt } from '../../../../jest/render-with-i18n';
import { RequestHistory } from './request-history';
import { useRequestHistoryStore } from '../../stores/request-history-store';
import { DBIP_URL } from '@kabari/shared/geo/dbip-attribution';
import { locationRequest } from '../../../../jest/location-request';
import { fakeApi } from '../../../../jest/fake-api';

jest.mock('@kabari/shared/ui/toasts', () => ({ showToast: jest.fn() }));
const toast = jest.mocked(showToast);
jest.setTimeout(30_000);
// antd in jsdom is slow on a busy machine: wait for what the user would see for longer than the default second.
configure({ asyncUtilTimeout: 10_000 });

function request(id: string, changes: Partial<LocationRequest> = {}): LocationRequest {
  return locationRequest({ id, target: `+62812000000${id}`, ...changes });
}

describe('the request history', () => {
  beforeEach(() => {
    toast.mockReset();
    useRequestHistoryStore.setState({ items: [], total: 0, page: 1, loadState: 'idle', selectedId: null });
  });

  it('lists requests with status, consent, delivery, times and address; pages; live updates replace rows', async () => {
    const located = request('1', {
      status: 'gps_tracked',
      consent: 'sharing',
      locatedTime: '2026-11-22T05:00:00.000Z',
      lastPosition: {
        id: 1,
        source: 'gps',
        latitude: -6.2,
        longitude: 106.8,
        accuracyMeters: 20,
        address: 'Menteng, Jakarta',
        recordedAt: '2026-11-22T05:00:00.000Z',
      },
    });
    fakeApi.on('get', '/api/v1/requests', { items: [located, request('2')], total: 12, page: 1, pageSize: 10 });
    const user = userEvent.setup();
    await renderAt('/dashboard', <RequestHistory locale="en" />);
    const rows = await screen.findAllByTestId('request-row');
    expect(fakeApi.calls('get', '/api/v1/requests')[0]?.query).toEqual({ page: 1, pageSize: 10 });
    expect(rows[0]).toHaveTextContent('GPS Tracked');
    expect(rows[0]).toHaveTextContent('Sharing');
    expect(rows[0]).toHaveTextContent('Menteng, Jakarta');
    expect(rows[1]).toHaveTextContent('Pending');
    expect(rows[1]).toHaveTextContent('Not answered yet');
    expect(rows[1]).toHaveTextContent('Sent');
    expect(rows[1]).toHaveTextContent('No address yet');

    act(() => useRequestHistoryStore.getState().upsertRequest(request('2', { status: 'ip_located' })));
    expect(screen.getAllByTestId('request-row')[1]).toHaveTextContent('IP Located');

    await user.click(within(rows[0]!).getByRole('button', { name: 'Show on map' }));
    expect(useRequestHistoryStore.getState().selectedId).toBe('1');

    const pages = screen.getByRole('navigation', { name: 'Pages of your requests' });
    await user.click(within(pages).getByText('2'));
    await waitFor(() =>
      expect(fakeApi.calls('get', '/api/v1/requests').at(-1)?.query).toEqual({ page: 2, pageSize: 10 }),
    );
  });

  it.each([
    ['en', '/dashboard', '3 km from Tokyo, Japan'],
    ['id', '/id/dashboard', '3 km dari Tokyo, Jepang'],
  ] as const)('writes the last position’s place in the reader’s language (%s)', async (locale, path, text) => {
    const position = {
      id: 7,
      source: 'gps' as const,
      latitude: 35.68,
      longitude: 139.76,
      accuracyMeters: 20,
      recordedAt: '2026-11-22T05:00:00.000Z',
    };
    fakeApi.on('get', '/api/v1/requests', {
      items: [
        request('1', {
          status: 'gps_tracked',
          lastPosition: {
            ...position,
            address: '3 km from Tokyo, Japan',
            place: { name: 'Tokyo', countryCode: 'JP', distanceKm: 3 },
          },
        }),
        // Stored before the parts were kept: its English text, as it is.
        request('2', {
          status: 'ip_located',
          lastPosition: { ...position, id: 8, address: 'Osaka, Japan', place: null },
        }),
      ],
      total: 2,
      page: 1,
      pageSize: 10,
    });
    await renderAt(path, <RequestHistory locale={locale} />);
    const addresses = await screen.findAllByTestId('request-address');
    expect(addresses[0]).toHaveTextContent(text);
    expect(addresses[1]).toHaveTextContent('Osaka, Japan');
  });

  it.each([
    ['en', '/dashboard', 'In the local outbox, not sent (no SMS provider is configured)', 'Sent'],
    ['id', '/id/dashboard', 'Di kotak keluar lokal, tidak terkirim (penyedia SMS belum dikonfigurasi)', 'Terkirim'],
  ] as const)('says plainly (%s) when a message stayed in the local outbox', async (locale, path, text, sent) => {
    fakeApi.on('get', '/api/v1/requests', {
      items: [request('1', { delivery: 'outbox' })],
      total: 1,
      page: 1,
      pageSize: 10,
    });
    await renderAt(path, <RequestHistory locale={locale} />);
    const delivery = await screen.findByTestId('request-delivery');
    expect(delivery).toHaveTextContent(text);
    expect(delivery).not.toHaveTextContent(sent);
  });

  it.each([
    ['en', '/dashboard', 'Delivered', 'Not delivered: the phone was off or out of reach. Try again later.', 'Failed'],
    [
      'id',
      '/id/dashboard',
      'Sampai ke penerima',
      'Tidak sampai: ponselnya mati atau di luar jangkauan. Coba lagi nanti.',
      'Gagal',
    ],
  ] as const)(
    'says (%s) when the provider delivered a message, and why one did not arrive',
    async (locale, path, delivered, unreachable, failed) => {
      fakeApi.on('get', '/api/v1/requests', {
        items: [
          request('1', { delivery: 'delivered' }),
          request('2', { delivery: 'failed', deliveryFailure: { reason: 'unreachable' } }),
          // Given up by the outbox itself: no reason to tell.
          request('3', { delivery: 'failed', deliveryFailure: null }),
        ],
        total: 3,
        page: 1,
        pageSize: 10,
      });
      await renderAt(path, <RequestHistory locale={locale} />);
      const deliveries = await screen.findAllByTestId('request-delivery');
      expect(deliveries.map((each) => each.textContent)).toEqual([delivered, unreachable, failed]);

      // A receipt arriving on the live stream replaces what the row says.
      act(() => useRequestHistoryStore.getState().upsertRequest(request('3', { delivery: 'delivered' })));
      expect(screen.getAllByTestId('request-delivery')[2]).toHaveTextContent(delivered);
    },
  );

  it.each([
    [
      'en',
      '/dashboard',
      [
        'Accepted by their mail server',
        'Not delivered: their mail server says this address does not exist. Check the address.',
        'Not delivered: their mail server refused it.',
      ],
    ],
    [
      'id',
      '/id/dashboard',
      [
        'Diterima server email penerima',
        'Tidak sampai: server email penerima menyatakan alamat ini tidak ada. Periksa alamatnya.',
        'Tidak sampai: server email penerima menolaknya.',
      ],
    ],
  ] as const)(
    'says (%s) what the receiving mail server answered an email, and updates live',
    async (locale, path, said) => {
      const email = (id: string, changes: Partial<LocationRequest>) =>
        request(id, { channel: 'email', target: `rina${id}@kabari.test`, ...changes });
      fakeApi.on('get', '/api/v1/requests', {
        items: [
          email('1', { delivery: 'sent' }),
          email('2', { delivery: 'failed', deliveryFailure: { reason: 'no-mailbox' } }),
          email('3', { delivery: 'failed', deliveryFailure: { reason: 'mail-refused' } }),
        ],
        total: 3,
        page: 1,
        pageSize: 10,
      });
      await renderAt(path, <RequestHistory locale={locale} />);
      const deliveries = await screen.findAllByTestId('request-delivery');
      expect(deliveries.slice(1).map((each) => each.textContent)).toEqual(said.slice(1));
      // The acceptance arrives on the live stream after the send.
      act(() => useRequestHistoryStore.getState().upsertRequest(email('1', { delivery: 'delivered' })));
      expect(screen.getAllByTestId('request-delivery')[0]).toHaveTextContent(said[0]);
    },
  );

  it.each([
    [
      'en',
      '/dashboard',
      [
        'Read',
        'In the local outbox, not sent (no WhatsApp provider is configured)',
        'Sent',
        'Not delivered: this number has no WhatsApp.',
      ],
      [
        'Sent by SMS instead (no WhatsApp)',
        "No WhatsApp on this number, and no SMS was sent instead: today's SMS limit was reached.",
      ],
    ],
    [
      'id',
      '/id/dashboard',
      [
        'Sudah dibaca',
        'Di kotak keluar lokal, tidak terkirim (penyedia WhatsApp belum dikonfigurasi)',
        'Terkirim',
        'Tidak sampai: nomor ini tidak memakai WhatsApp.',
      ],
      [
        'Dikirim lewat SMS sebagai gantinya (tidak ada WhatsApp)',
        'Nomor ini tidak memakai WhatsApp, dan tidak ada SMS pengganti yang dikirim: batas SMS hari ini sudah tercapai.',
      ],
    ],
  ] as const)(
    'tags (%s) a request sent by WhatsApp, and says when an SMS went instead',
    async (locale, path, deliveries, fallbacks) => {
      fakeApi.on('get', '/api/v1/requests', {
        items: [
          request('1', { delivery: 'read', whatsapp: { fallback: null } }),
          request('2', { delivery: 'outbox', whatsapp: { fallback: null } }),
          request('3', { delivery: 'sent', whatsapp: { fallback: 'sms' } }),
          request('4', {
            delivery: 'failed',
            deliveryFailure: { reason: 'no-whatsapp' },
            whatsapp: { fallback: 'limit' },
          }),
        ],
        total: 4,
        page: 1,
        pageSize: 10,
      });
      await renderAt(path, <RequestHistory locale={locale} />);
      const shown = await screen.findAllByTestId('request-delivery');
      expect(shown.map((each) => each.textContent)).toEqual(deliveries);
      for (const row of screen.getAllByTestId('request-row')) expect(row).toHaveTextContent(/^WhatsApp/);
      expect(screen.getAllByTestId('request-whatsapp-fallback').map((each) => each.textContent)).toEqual(fallbacks);
    },
  );

  it('offers Cancel only where the server cancels, and says what it really did', async () => {
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const past = new Date(Date.now() - 1000).toISOString();
    fakeApi.on('get', '/api/v1/requests', {
      items: [
        request('1', { expiresAt: future }),
        request('2', { channel: 'link', target: null, title: 'Mum', delivery: null, consent: 'declined' }),
        request('3', { channel: 'link', target: null, title: 'Dad', delivery: null, consent: 'stopped' }),
        request('4', { consent: 'withdrawn' }),
        request('5', { expiresAt: past }),
        request('6', { channel: 'email', target: 'budi@example.com', consent: 'cancelled' }),
      ],
      total: 6,
      page: 1,
      pageSize: 10,
    });
    const user = userEvent.setup();
    await renderAt('/dashboard', <RequestHistory locale="en" />);
    const rows = await screen.findAllByTestId('request-row');
    const cancelOf = (row: HTMLElement) => within(row).queryByRole('button', { name: /^Cancel (request|link)$/ });
    expect(rows.map((row) => Boolean(cancelOf(row)))).toEqual([true, false, true, false, false, false]);
    expect(cancelOf(rows[0]!)).toHaveTextContent('Cancel request');
    expect(cancelOf(rows[2]!)).toHaveTextContent('Cancel link');

    // A pending SMS request: cancelled by the server, and the row shows it.
    fakeApi.on('post', '/api/v1/requests/{id}/cancel', {
      request: request('1', { consent: 'cancelled' }),
      cancelled: true,
    });
    await user.click(cancelOf(rows[0]!)!);
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(toast).toHaveBeenCalledWith('success', 'Request cancelled'));
    const [cancelled] = fakeApi.calls('post', '/api/v1/requests/{id}/cancel');
    expect(cancelled?.path).toEqual({ id: '1' });
    expect(cancelled?.body).toBeUndefined();
    expect(screen.getAllByTestId('request-row')[0]).toHaveTextContent('Cancelled');

    // The recipient declined meanwhile: the server changed nothing, and the user is told so.
    fakeApi.on('post', '/api/v1/requests/{id}/cancel', {
      request: request('3', { consent: 'declined' }),
      cancelled: false,
    });
    await user.click(cancelOf(screen.getAllByTestId('request-row')[2]!)!);
    await user.click((await screen.findAllByRole('button', { name: 'Yes' })).at(-1)!);
    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith('info', 'Nothing to cancel: this request had already ended.'),
    );
    expect(toast).not.toHaveBeenCalledWith('success', 'Link cancelled');
    expect(screen.getAllByTestId('request-row')[2]).toHaveTextContent('Declined');
  });

  it('credits DB-IP where an address comes from the IP', async () => {
    const at = (source: 'ip' | 'gps', address: string) => ({
      id: source === 'ip' ? 1 : 2,
      source,
      latitude: -6.2,
      longitude: 106.8,
      accuracyMeters: null,
      address,
      recordedAt: '2026-11-22T05:00:00.000Z',
    });
    fakeApi.on('get', '/api/v1/requests', {
      items: [
        request('1', { status: 'ip_located', lastPosition: at('ip', 'Jakarta') }),
        request('2', { status: 'gps_tracked', lastPosition: at('gps', 'Menteng') }),
      ],
      total: 2,
      page: 1,
      pageSize: 10,
    });
    await renderAt('/id/dashboard', <RequestHistory locale="id" />);
    const rows = await screen.findAllByTestId('request-row');
    const credit = within(rows[0]!).getByRole('link', { name: 'Lokasi IP oleh DB-IP' });
    expect(credit).toHaveAttribute('href', DBIP_URL);
    expect(within(rows[1]!).queryByRole('link')).not.toBeInTheDocument();
  });

  it('deletes a request after asking, in Indonesian', async () => {
    // The list before the deletion, then after it.
    const lists = [[request('1')], []];
    fakeApi.on('get', '/api/v1/requests', () => {
      const items = lists.shift() ?? [];
      return { items, total: items.length, page: 1, pageSize: 10 };
    });
    fakeApi.on('delete', '/api/v1/requests/{id}', { success: true });
    const user = userEvent.setup();
    await renderAt('/id/dashboard', <RequestHistory locale="id" />);
    const row = await screen.findByTestId('request-row');
    expect(row).toHaveTextContent('Menunggu');
    await user.click(within(row).getByRole('button', { name: 'Hapus' }));
    await user.click(await screen.findByRole('button', { name: 'Ya' }));
    expect(await screen.findByText(/Belum ada permintaan/)).toBeInTheDocument();
    expect(fakeApi.calls('delete', '/api/v1/requests/{id}').map((call) => call.path)).toEqual([{ id: '1' }]);
  });
});
