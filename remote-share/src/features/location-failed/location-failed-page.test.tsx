import { fireEvent, screen } from '@testing-library/react';
import { renderRecipientPage } from '../../testing/render-recipient-page';
import { fakeApi } from '../../../../jest/fake-api';
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

  it('offers Stop sharing, since the approximate place may already be shared', async () => {
    fakeApi.on('post', '/api/v1/share/links/{token}/stop', { state: 'stopped' });
    renderRecipientPage('/location-failed?token=tok&reason=denied', LocationFailedPage);
    fireEvent.click(screen.getByRole('button', { name: 'Stop sharing' }));
    expect(await screen.findByRole('heading', { name: /You stopped sharing/ })).toBeInTheDocument();
    expect(fakeApi.calls('post', '/api/v1/share/links/{token}/stop').map((call) => call.path)).toEqual([
      { token: 'tok' },
    ]);
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
  });

  it('offers Stop and erase, asking first (in Indonesian)', async () => {
    fakeApi.on('post', '/api/v1/share/links/{token}/withdraw', { state: 'withdrawn' });
    renderRecipientPage('/id/location-failed?token=tok&reason=denied', LocationFailedPage);
    fireEvent.click(screen.getByRole('button', { name: 'Berhenti dan hapus' }));
    fireEvent.click(screen.getByRole('button', { name: 'Ya, hentikan dan hapus' }));
    expect(await screen.findByRole('heading', { name: /sudah dihapus/ })).toBeInTheDocument();
    expect(fakeApi.calls('post', '/api/v1/share/links/{token}/withdraw').map((call) => call.path)).toEqual([
      { token: 'tok' },
    ]);
  });

  it('says so when nothing is being shared through the link', async () => {
    fakeApi.on('post', '/api/v1/share/links/{token}/stop', fakeApi.fail(409, 'You are not sharing through this link.'));
    renderRecipientPage('/location-failed?token=tok&reason=failed', LocationFailedPage);
    fireEvent.click(screen.getByRole('button', { name: 'Stop sharing' }));
    expect(await screen.findByRole('heading', { name: 'You are not sharing through this link.' })).toBeInTheDocument();
  });
});
