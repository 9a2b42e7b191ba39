import { fireEvent, screen } from '@testing-library/react';
import { renderRecipientPage } from '../../testing/render-recipient-page';
import LocationFailedPage from './location-failed-page';

describe('LocationFailedPage', () => {
  it.each([
    ['unsupported', 'The browser does not support geolocation'],
    ['denied', 'User denied location permission'],
    ['failed', 'Failed to get location'],
    ['disabled', 'Your GPS location has been disabled'],
  ])('says the product’s message for %s and how to turn location on', async (reason, message) => {
    renderRecipientPage(`/location-failed?token=tok&reason=${reason}`, LocationFailedPage);
    expect(screen.getByRole('heading', { name: message })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'iPhone (Safari)' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeEnabled();
  });

  it('speaks Indonesian under /id', async () => {
    renderRecipientPage('/id/location-failed?token=tok&reason=denied', LocationFailedPage);
    expect(screen.getByRole('heading', { name: 'Izin lokasi ditolak' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Coba lagi' })).toBeEnabled();
  });

  function reply(status: number, data: unknown) {
    return { ok: status < 400, status, statusText: '', json: async () => ({ status, message: '', data }) };
  }

  it('offers Stop sharing, since the approximate place may already be shared', async () => {
    const fetchMock = jest.fn(async () => reply(200, { state: 'stopped' }));
    global.fetch = fetchMock as unknown as typeof fetch;
    renderRecipientPage('/location-failed?token=tok&reason=denied', LocationFailedPage);
    fireEvent.click(screen.getByRole('button', { name: 'Stop sharing' }));
    expect(await screen.findByRole('heading', { name: /You stopped sharing/ })).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith('/api/v1/share/links/tok/stop', expect.objectContaining({ method: 'POST' }));
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
  });

  it('offers Stop and erase, asking first (in Indonesian)', async () => {
    const fetchMock = jest.fn(async () => reply(200, { state: 'withdrawn' }));
    global.fetch = fetchMock as unknown as typeof fetch;
    renderRecipientPage('/id/location-failed?token=tok&reason=denied', LocationFailedPage);
    fireEvent.click(screen.getByRole('button', { name: 'Berhenti dan hapus' }));
    fireEvent.click(screen.getByRole('button', { name: 'Ya, hentikan dan hapus' }));
    expect(await screen.findByRole('heading', { name: /sudah dihapus/ })).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/v1/share/links/tok/withdraw',
      expect.objectContaining({ method: 'POST' }),
    );
  });

  it('says so when nothing is being shared through the link', async () => {
    global.fetch = jest.fn(async () => reply(409, null)) as unknown as typeof fetch;
    renderRecipientPage('/location-failed?token=tok&reason=failed', LocationFailedPage);
    fireEvent.click(screen.getByRole('button', { name: 'Stop sharing' }));
    expect(await screen.findByRole('heading', { name: 'You are not sharing through this link.' })).toBeInTheDocument();
  });
});
