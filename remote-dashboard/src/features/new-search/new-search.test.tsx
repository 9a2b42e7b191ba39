import { act, cleanup, configure, screen } from '@testing-library/react';
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
  // Whether the server sends WhatsApp, asked through the link check (no number yet): here it does not.
  fakeApi.on('get', '/api/v1/requests/limit', {
    nextAllowedAt: null,
    optedOut: false,
    linkExpiryDays: 7,
    whatsapp: false,
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

describe('the intro of a request by number', () => {
  it('says SMS where the server sends no WhatsApp', async () => {
    await renderSearch('/dashboard');
    expect(
      await screen.findByText(
        "We send an SMS from Kabari's own number. It names you and asks whether they want to share their location.",
      ),
    ).toBeInTheDocument();
    expect(fakeApi.calls('get', '/api/v1/requests/limit').map((call) => call.query)).toEqual([{ channel: 'link' }]);
  });

  it('says WhatsApp or SMS where the server sends WhatsApp, in English and Indonesian', async () => {
    fakeApi.on('get', '/api/v1/requests/limit', {
      nextAllowedAt: null,
      optedOut: false,
      linkExpiryDays: 7,
      whatsapp: true,
    });
    await renderSearch('/dashboard');
    expect(
      await screen.findByText(
        "We send a WhatsApp message, or an SMS if you prefer, from Kabari's own number. It names you and asks whether they want to share their location.",
      ),
    ).toBeInTheDocument();
    cleanup();
    await renderSearch('/id/dashboard');
    expect(
      await screen.findByText(
        'Kami mengirim pesan WhatsApp, atau SMS jika Anda memilihnya, dari nomor Kabari sendiri. Pesan itu menyebut nama Anda dan menanyakan apakah ia mau membagikan lokasinya.',
      ),
    ).toBeInTheDocument();
  });
});
