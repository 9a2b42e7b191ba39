import { screen } from '@testing-library/react';
import { renderAt } from '../../../../jest/render-with-i18n';
import LocationFailedPage from './location-failed-page';

describe('LocationFailedPage', () => {
  it.each([
    ['unsupported', 'The browser does not support geolocation'],
    ['denied', 'User denied location permission'],
    ['failed', 'Failed to get location'],
    ['disabled', 'Your GPS location has been disabled'],
  ])('says the spec’s message for %s and how to turn location on', async (reason, message) => {
    await renderAt(`/location-failed?token=tok&reason=${reason}`, <LocationFailedPage />);
    expect(screen.getByRole('heading', { name: message })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'iPhone (Safari)' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeEnabled();
  });

  it('speaks Indonesian under /id', async () => {
    await renderAt('/id/location-failed?token=tok&reason=denied', <LocationFailedPage />);
    expect(screen.getByRole('heading', { name: 'Izin lokasi ditolak' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Coba lagi' })).toBeEnabled();
  });
});
