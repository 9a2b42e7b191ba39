import { configure, screen } from '@testing-library/react';
import { apiGet } from '@kabari/shared/api/api-client';
import { rememberSearchedNumber } from '@kabari/shared/requests/searched-number';
import { renderAt } from '../../../../jest/render-with-i18n';
import { NewSearch } from './new-search';

jest.mock('@kabari/shared/api/api-client', () => ({ apiGet: jest.fn(), apiPost: jest.fn() }));
const get = jest.mocked(apiGet);
jest.setTimeout(30_000);
// antd in jsdom is slow on a busy machine: wait for what the user would see for longer than the default second.
configure({ asyncUtilTimeout: 10_000 });

beforeEach(() => {
  sessionStorage.clear();
  // The visitor's country from their address: the number searched before the account wins over it.
  get.mockResolvedValue({ countryCode: 'US' });
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

  it('leaves the form empty when there is none, or it is not a number', async () => {
    sessionStorage.setItem('kabari-searched-number', '<img src=x>');
    await renderSearch('/dashboard');
    expect(await screen.findByLabelText('Mobile number')).toHaveValue('');
    expect(screen.queryByRole('status')).toBeNull();
  });
});
