import { act, configure, screen } from '@testing-library/react';
import { describeNumber } from '@kabari/shared/requests/phone-validation';
import { rememberSearchedNumber } from '@kabari/shared/requests/searched-number';
import { renderAt } from '../../../../jest/render-with-i18n';
import { fakeApi } from '../../../../jest/fake-api';
import { NewSearch } from './new-search';

jest.setTimeout(30_000);
// antd in jsdom is slow on a busy machine: wait for what the user would see for longer than the default second.
configure({ asyncUtilTimeout: 10_000 });

beforeEach(() => {
  sessionStorage.clear();
  // The visitor's country from their address: the number searched before the account wins over it.
  fakeApi.on('get', '/api/v1/locate/country', {
    countryCode: 'US',
    attribution: { text: 'IP Geolocation by DB-IP', url: 'https://db-ip.com/', license: 'CC BY 4.0' },
  });
});

function renderSearch(url: string) {
  return renderAt(
    url,
    <NewSearch locale={url.startsWith('/id') ? 'id' : 'en'} onRequestCreated={jest.fn()} onSeeHistory={jest.fn()} />,
  );
}

describe('the number searched before the account', () => {
  it('is filled in with its country and said so, then forgotten', async () => {
    rememberSearchedNumber('+6281234567890');
    await renderSearch('/dashboard');
    expect(
      await screen.findByText(
        'You searched for +62 812 3456 7890 before creating your account. It is filled in below: press Find to ask them.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Mobile number')).toHaveValue('0812-3456-7890');
    expect(screen.getByLabelText('Country code')).toHaveValue('ID');
    expect(sessionStorage.getItem('kabari-searched-number')).toBeNull();
  });

  it('in Indonesian too', async () => {
    rememberSearchedNumber('+6281234567890');
    await renderSearch('/id/dashboard');
    expect(
      await screen.findByText(
        'Anda mencari +62 812 3456 7890 sebelum membuat akun. Nomor itu sudah terisi di bawah: tekan Cari untuk memintanya.',
      ),
    ).toBeInTheDocument();
  });

  it.each([
    ['there is none', null],
    ['it is not a number', '<img src=x>'],
    // The number library would read this one: only the stored form's own check refuses it.
    ['it is not kept in the international form', '+62 812 3456 7890'],
  ])('leaves the form empty when %s', async (_, stored) => {
    if (stored) sessionStorage.setItem('kabari-searched-number', stored);
    await renderSearch('/dashboard');
    const number = await screen.findByLabelText('Mobile number');
    // The number library loads on first use: once this call has answered, any call the form made has too.
    await act(async () => {
      await describeNumber('+6281234567890');
    });
    expect(number).toHaveValue('');
    expect(screen.queryByRole('status')).toBeNull();
  });
});
