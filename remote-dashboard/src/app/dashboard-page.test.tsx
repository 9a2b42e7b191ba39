import { act, configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { clearSession, useUserStore } from '@kabari/shared/stores/session-store';
import { renderAt } from '../../../jest/render-with-i18n';
import DashboardPage from './dashboard-page';
import { signedInUser } from '../../../jest/signed-in-user';
import { fakeApi } from '../../../jest/fake-api';

jest.setTimeout(30_000);
// antd in jsdom is slow on a busy machine: wait for what the user would see for longer than the default second.
configure({ asyncUtilTimeout: 10_000 });

const attribution = { text: 'IP Geolocation by DB-IP', url: 'https://db-ip.com/', license: 'CC BY 4.0' };

function signIn() {
  useUserStore.getState().setUser(signedInUser());
}

describe('DashboardPage', () => {
  beforeEach(() => {
    fakeApi.on('get', '/api/v1/requests', { items: [], total: 0, page: 1, pageSize: 10 });
    fakeApi.on('get', '/api/v1/locate/country', { countryCode: null, attribution });
    // The number tab's intro asks whether the server sends WhatsApp.
    fakeApi.on('get', '/api/v1/requests/limit', { nextAllowedAt: null, optedOut: false, whatsapp: false });
  });
  afterEach(() => act(() => clearSession()));

  it('reads the signed-in user from the shared session store, live', async () => {
    signIn();
    await renderAt('/dashboard', <DashboardPage />);
    expect(screen.getByTestId('dashboard-user')).toHaveTextContent('Signed in as Ana');
    expect(await screen.findByText(/No requests yet/)).toBeInTheDocument();

    act(() => clearSession());
    expect(screen.getByTestId('dashboard-signed-out')).toBeInTheDocument();
  });

  it('offers the three ways to ask, checks an email, and explains how requests work', async () => {
    signIn();
    const user = userEvent.setup();
    await renderAt('/dashboard', <DashboardPage />);
    const search = screen.getByRole('region', { name: 'New search' });
    expect(within(search).getByRole('combobox', { name: 'Country code' })).toHaveDisplayValue('United States (+1)');
    await user.click(within(search).getByRole('tab', { name: 'By email' }));
    await user.click(within(search).getByRole('button', { name: 'Choose a message' }));
    const email = within(search).getByRole('textbox', { name: 'Their email address' });
    expect(email).toHaveAccessibleDescription('Please enter your email address');
    await user.type(email, 'budi@example');
    await user.click(within(search).getByRole('button', { name: 'Choose a message' }));
    expect(email).toHaveAccessibleDescription('Enter valid email address');

    await user.click(screen.getByRole('button', { name: 'How requests work' }));
    const tips = await screen.findByRole('dialog', { name: 'How location requests work' });
    expect(tips).toHaveTextContent('Nothing about them is recorded until they agree.');
  });

  it('speaks Indonesian under /id', async () => {
    signIn();
    await renderAt('/id/dashboard', <DashboardPage />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Dasbor');
    expect(screen.getByRole('tab', { name: 'Tautan' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Kode negara' })).toHaveDisplayValue('Indonesia (+62)');
    expect(await screen.findByText(/Belum ada permintaan/)).toBeInTheDocument();
  });
});
