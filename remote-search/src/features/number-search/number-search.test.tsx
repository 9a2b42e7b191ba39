import { act, configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from '@kabari/shared/routing/router';
import { initI18n } from '@kabari/shared/i18n/create-i18n';
import { callingCodes } from '@kabari/shared/requests/calling-codes';
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

  describe('prerendered, before the app has started', () => {
    /** The page's HTML for `url`, as the build prerenders it, in a document. */
    async function prerendered(url: string): Promise<HTMLElement> {
      await initI18n(url.startsWith('/id') ? 'id' : 'en');
      const container = document.createElement('div');
      container.innerHTML = renderToString(ui(url));
      document.body.appendChild(container);
      return container;
    }
    const ui = (url: string) => (
      <MemoryRouter initialEntries={[url]}>
        <NumberSearch />
      </MemoryRouter>
    );
    const countryList = (container: HTMLElement) => container.querySelector('select') as HTMLSelectElement;
    const numberField = (container: HTMLElement) => container.querySelector('input[type="tel"]') as HTMLInputElement;
    const form = (container: HTMLElement) => container.querySelector('form') as HTMLFormElement;

    afterEach(() => {
      document.body.innerHTML = '';
    });

    it('lists every country, Indonesia chosen under /id; Find waits for the page script; says what needs JavaScript', async () => {
      const container = await prerendered('/id');
      const options = [...countryList(container).options];
      expect(options.map((option) => option.value).sort()).toEqual(Object.keys(callingCodes).sort());
      expect(countryList(container).value).toBe('ID');
      expect(options.find((option) => option.value === 'GB')?.textContent).toBe('Inggris Raya (+44)');
      // /id keeps Indonesia: only the English page asks the server for the visitor's country.
      expect(countryList(container).hasAttribute('data-visitor-country')).toBe(false);
      expect(container.querySelector('button[type="submit"]')).toBeDisabled();
      expect(form(container).hasAttribute('data-submit-after-start')).toBe(true);
      expect(container.querySelector('noscript')?.innerHTML).toContain(
        'Pencarian ini memerlukan JavaScript. Aktifkan JavaScript di peramban Anda untuk mencari nomor.',
      );

      const english = await prerendered('/');
      expect(countryList(english).value).toBe('US');
      expect(countryList(english).hasAttribute('data-visitor-country')).toBe(true);
      expect(english.querySelector('noscript')?.innerHTML).toContain('This search needs JavaScript.');
    });

    it('keeps the country chosen and the number typed, and runs a Find pressed meanwhile', async () => {
      answer('US');
      const container = await prerendered('/');
      countryList(container).value = 'ID';
      numberField(container).value = '0812 3456 7890';
      // What the page's first script does with a Find pressed before the app has started.
      form(container).setAttribute('data-submit-pending', '');
      form(container).setAttribute('aria-busy', 'true');

      await act(async () => {
        render(ui('/'), { container, hydrate: true });
      });
      expect(screen.getByRole('combobox', { name: 'Country code' })).toHaveValue('ID');
      expect(screen.getByRole('textbox', { name: 'Mobile number' })).toHaveValue('0812 3456 7890');
      // An Indonesian number: valid only with the country chosen before the start.
      await screen.findByRole('dialog', { name: 'About this number' }, { timeout: 15_000 });
      expect(fakeApi.calls('get', '/api/v1/numbers/lookup').map((call) => call.query)).toEqual([
        { number: '+6281234567890', locale: 'en' },
      ]);
      // Held once, run once; the app answers the form's submits from now on.
      expect(form(container).hasAttribute('data-submit-pending')).toBe(false);
      expect(form(container).hasAttribute('aria-busy')).toBe(false);
      expect(form(container).hasAttribute('data-submit-after-start')).toBe(false);
      expect(screen.getByRole('button', { name: 'Find' })).toBeEnabled();
    });

    it('without a held Find, takes the choices over and searches nothing', async () => {
      answer('US');
      const container = await prerendered('/');
      countryList(container).value = 'GB';
      await act(async () => {
        render(ui('/'), { container, hydrate: true });
      });
      expect(screen.getByRole('combobox', { name: 'Country code' })).toHaveValue('GB');
      expect(screen.getByRole('button', { name: 'Find' })).toBeEnabled();
      expect(fakeApi.calls('get', '/api/v1/numbers/lookup')).toEqual([]);
    });
  });
});
