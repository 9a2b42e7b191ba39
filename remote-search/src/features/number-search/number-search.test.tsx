import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useOverlayStore } from '@kabari/shared/stores/overlay-store';
import { fetchIpCountry, forgetIpCountry } from '@kabari/shared/requests/visitor-country';
import { renderAt } from '../../../../jest/render-with-i18n';
import { fakeApi } from '../../../../jest/fake-api';
import type { ApiData } from '@kabari/shared/api/api-types';
import { NumberSearch } from './number-search';

jest.setTimeout(30_000);
// antd in jsdom is slow on a busy machine: wait for what the user would see for longer than the default second.
configure({ asyncUtilTimeout: 10_000 });

const lookup: ApiData<'/api/v1/numbers/lookup', 'get'> = {
  e164: '+6281234567890',
  valid: true,
  countryCode: 'ID',
  countryName: 'Indonesia',
  region: null,
  carrier: 'Telkomsel',
  timeZones: ['Asia/Jakarta'],
  lineType: 'mobile',
  smsAllowed: true,
};
const attribution = { text: 'IP Geolocation by DB-IP', url: 'https://db-ip.com/', license: 'CC BY 4.0' };

function answer(countryCode: string | null) {
  fakeApi.on('get', '/api/v1/locate/country', { countryCode, attribution });
  fakeApi.on('get', '/api/v1/numbers/lookup', lookup);
}

describe('the home number search', () => {
  beforeEach(() => {
    forgetIpCountry();
    act(() => {
      useOverlayStore.setState({
        open: { login: false, resetPwd: false, searching: false, payment: false },
        productInfo: null,
      });
    });
  });

  it('says what is wrong with the number, and sends nothing then', async () => {
    answer('US');
    const user = userEvent.setup();
    await renderAt('/', <NumberSearch />);
    const find = screen.getByRole('button', { name: 'Find' });
    await user.click(find);
    const number = screen.getByRole('textbox', { name: 'Mobile number' });
    await waitFor(() => expect(number).toHaveAccessibleDescription('Please enter a number'));
    expect(number).toHaveFocus();
    await user.type(number, '12');
    await user.click(find);
    await waitFor(() => expect(number).toHaveAccessibleDescription('Please enter a valid mobile number'));
    expect(fakeApi.calls('get', '/api/v1/numbers/lookup')).toEqual([]);
  });

  it("starts from the visitor's IP country once the form is touched, unless they chose one", async () => {
    answer('GB');
    const user = userEvent.setup();
    await renderAt('/', <NumberSearch />);
    const country = screen.getByRole('combobox', { name: 'Country code' });
    expect(country).toHaveDisplayValue('United States (+1)');
    expect(fakeApi.called()).toEqual([]);
    await user.click(screen.getByRole('textbox', { name: 'Mobile number' }));
    await waitFor(() => expect(country).toHaveDisplayValue('United Kingdom (+44)'));
    expect(fakeApi.calls('get', '/api/v1/locate/country')[0]?.options).toEqual(
      expect.objectContaining({ toastErrors: false }),
    );
  });

  it('keeps the United States when the IP country is unknown', async () => {
    answer(null);
    const user = userEvent.setup();
    await renderAt('/', <NumberSearch />);
    await user.click(screen.getByRole('textbox', { name: 'Mobile number' }));
    await waitFor(() => expect(fakeApi.called()).not.toEqual([]));
    // The same cached answer the field is waiting on: once it is in, the field has had its chance to change.
    await act(async () => {
      expect(await fetchIpCountry()).toBeNull();
    });
    expect(screen.getByRole('combobox', { name: 'Country code' })).toHaveDisplayValue('United States (+1)');
  });

  it('under /id: Indonesia, the facts, then the create-account step with the number', async () => {
    answer('US');
    const user = userEvent.setup();
    await renderAt('/id', <NumberSearch />);
    expect(screen.getByRole('combobox', { name: 'Kode negara' })).toHaveDisplayValue('Indonesia (+62)');
    await user.type(screen.getByRole('textbox', { name: 'Nomor ponsel' }), '0812 3456 7890');
    await user.click(screen.getByRole('button', { name: 'Cari' }));
    const dialog = await screen.findByRole('dialog', { name: 'Tentang nomor ini' }, { timeout: 15_000 });
    expect(await within(dialog).findByText('Telkomsel')).toBeInTheDocument();
    expect(fakeApi.calls('get', '/api/v1/locate/country')).toEqual([]);
    expect(useOverlayStore.getState().open.searching).toBe(true);

    await user.click(within(dialog).getByRole('button', { name: 'Lanjutkan' }));
    const overlay = useOverlayStore.getState();
    expect(overlay.open).toMatchObject({ searching: false, payment: true });
    expect(overlay.productInfo).toEqual({ searchedNumber: '+6281234567890' });
  });
});
