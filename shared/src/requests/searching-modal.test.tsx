import { configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderAt } from '../../../jest/render-with-i18n';
import { fakeApi } from '../../../jest/fake-api';
import SearchingModal from './searching-modal';
import type { NumberLookup } from './location-request';

jest.setTimeout(30_000);
// antd in jsdom is slow on a busy machine: wait for what the user would see for longer than the default second.
configure({ asyncUtilTimeout: 10_000 });

const telkomsel: NumberLookup = {
  e164: '+6281234567890',
  valid: true,
  countryCode: 'ID',
  countryName: 'Indonesia',
  region: null,
  carrier: 'Telkomsel',
  timeZones: ['Asia/Jakarta', 'Asia/Makassar'],
  lineType: 'mobile',
  smsAllowed: true,
};

function fact(name: string) {
  const facts = screen.getByTestId('number-facts');
  const term = within(facts).getByText(name, { selector: 'dt' });
  return term.nextElementSibling?.textContent;
}

describe('the searching modal', () => {
  it('shows only the numbering-plan facts, an unknown one as unknown, then lets the user continue', async () => {
    fakeApi.on('get', '/api/v1/numbers/lookup', telkomsel);
    const onContinue = jest.fn();
    await renderAt(
      '/',
      <SearchingModal open e164="+6281234567890" locale="en" onClose={jest.fn()} onContinue={onContinue} />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'About this number' });
    expect(within(dialog).getByText('Number format checked')).toBeInTheDocument();
    expect(await within(dialog).findByText('Numbering plan looked up')).toBeInTheDocument();
    expect(within(dialog).getByText('Done')).toBeInTheDocument();
    const [lookup] = fakeApi.calls('get', '/api/v1/numbers/lookup');
    expect(lookup?.query).toEqual({ number: '+6281234567890', locale: 'en' });
    expect(lookup?.options).toEqual({});
    expect(fact('Country')).toBe('Indonesia');
    expect(fact('Region')).toBe('Unknown');
    expect(fact('Carrier the number was assigned to')).toBe('Telkomsel');
    expect(fact('Time zone')).toBe('Asia/Jakarta, Asia/Makassar');
    expect(fact('Line type')).toBe('Mobile');
    expect(within(dialog).queryByText(/tower/i)).toBeNull();
    expect(within(dialog).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(onContinue).toHaveBeenCalledWith(telkomsel);
  });

  it('in Indonesian; a number that is not valid cannot go on', async () => {
    fakeApi.on('get', '/api/v1/numbers/lookup', {
      ...telkomsel,
      valid: false,
      carrier: null,
      timeZones: null,
      lineType: null,
    });
    await renderAt(
      '/id',
      <SearchingModal open e164="+6281234567890" locale="id" onClose={jest.fn()} onContinue={jest.fn()} />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Tentang nomor ini' });
    expect(await within(dialog).findByText(/Ini bukan nomor ponsel yang valid/)).toBeInTheDocument();
    expect(fact('Operator asal nomor')).toBe('Tidak diketahui');
    expect(fact('Jenis saluran')).toBe('Tidak diketahui');
    expect(within(dialog).getByRole('button', { name: 'Lanjutkan' })).toBeDisabled();
  });

  const nigerian: NumberLookup = {
    ...telkomsel,
    e164: '+2348031234567',
    countryCode: 'NG',
    countryName: 'Nigeria',
    carrier: 'MTN',
    timeZones: ['Africa/Lagos'],
    smsAllowed: false,
    smsRefusal: 'Kabari sends SMS only to numbers in Indonesia. Ask this person by email or with a link instead.',
  };

  it('says up front when Kabari sends no SMS to the number’s country; a visitor may still go on to sign up', async () => {
    fakeApi.on('get', '/api/v1/numbers/lookup', nigerian);
    const onContinue = jest.fn();
    await renderAt(
      '/',
      <SearchingModal open e164={nigerian.e164} locale="en" onClose={jest.fn()} onContinue={onContinue} />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'About this number' });
    expect(await within(dialog).findByTestId('sms-refused')).toHaveTextContent(nigerian.smsRefusal!);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(onContinue).toHaveBeenCalledWith(nigerian);
  });

  it('does not go on to write an SMS to such a number (the dashboard), in Indonesian', async () => {
    fakeApi.on('get', '/api/v1/numbers/lookup', { ...nigerian, smsRefusal: undefined });
    await renderAt(
      '/id',
      <SearchingModal open e164={nigerian.e164} locale="id" requireSms onClose={jest.fn()} onContinue={jest.fn()} />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Tentang nomor ini' });
    expect(await within(dialog).findByTestId('sms-refused')).toHaveTextContent(
      'Kabari tidak mengirim SMS ke nomor di negara ini.',
    );
    expect(within(dialog).getByRole('button', { name: 'Lanjutkan' })).toBeDisabled();
  });

  it('says so when the look-up fails, and tries again on request', async () => {
    const answers = [fakeApi.unreachable(), telkomsel];
    fakeApi.on('get', '/api/v1/numbers/lookup', () => answers.shift() ?? telkomsel);
    await renderAt(
      '/',
      <SearchingModal open e164="+6281234567890" locale="en" onClose={jest.fn()} onContinue={jest.fn()} />,
    );
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText(/could not be looked up/)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Continue' })).toBeDisabled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Try again' }));
    expect(await within(dialog).findByText('Telkomsel')).toBeInTheDocument();
    expect(fakeApi.calls('get', '/api/v1/numbers/lookup')).toHaveLength(2);
  });
});
