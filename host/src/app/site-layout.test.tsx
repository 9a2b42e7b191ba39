import { screen, waitFor } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from '@kabari/shared/routing/router';
import { initI18n } from '@kabari/shared/i18n/create-i18n';
import userEvent from '@testing-library/user-event';
import { useOverlayStore } from '@kabari/shared/stores/overlay-store';
import { clearSession, useUserStore } from '@kabari/shared/stores/session-store';
import { renderAt } from '../../../jest/render-with-i18n';
import '../i18n/host-namespace';
import { AuthDialogs } from '../features/auth/auth-dialogs';
import { SiteLayout } from './site-layout';
import { signedInUser } from '../../../jest/signed-in-user';
import { fakeApi } from '../../../jest/fake-api';

describe('SiteLayout header', () => {
  afterEach(() => {
    clearSession();
    useOverlayStore.setState({ open: { login: false, resetPwd: false, searching: false, payment: false } });
  });

  it('offers Log in to a signed-out visitor, which opens the login dialog', async () => {
    await renderAt('/id/', <SiteLayout>page</SiteLayout>);
    await userEvent.click(screen.getByRole('button', { name: 'Masuk' }));
    expect(useOverlayStore.getState().open.login).toBe(true);
  });

  it('offers Log in as a plain link to the home page when the header stays plain HTML (a recipient’s page)', async () => {
    await renderAt('/id/enter-link', <SiteLayout staticHeader>page</SiteLayout>);
    expect(screen.getByRole('link', { name: 'Masuk' })).toHaveAttribute('href', '/id/#log-in');
    expect(screen.queryByRole('button', { name: 'Masuk' })).not.toBeInTheDocument();
  });

  // The HTML the server prerenders (hydration is not done yet there).
  const prerendered = async (url: string) => {
    await initI18n(url.startsWith('/id') ? 'id' : 'en');
    const holder = document.createElement('div');
    holder.innerHTML = renderToString(
      <MemoryRouter initialEntries={[url]}>
        <SiteLayout>page</SiteLayout>
      </MemoryRouter>,
    );
    return holder;
  };

  it('prerenders Log in on the public pages as a working link to their own #log-in (their app starts on first use)', async () => {
    for (const [url, name, href] of [
      ['/', 'Log in', '/#log-in'],
      ['/id/', 'Masuk', '/id/#log-in'],
      ['/id', 'Masuk', '/id/#log-in'],
      ['/faqs', 'Log in', '/faqs#log-in'],
      ['/id/contact-us', 'Masuk', '/id/contact-us#log-in'],
    ] as const) {
      const login = (await prerendered(url)).querySelector('.site-header__nav a.button--primary');
      expect(login).toHaveTextContent(name);
      expect(login).toHaveAttribute('href', href);
    }
  });

  it('prerenders an invisible stand-in for Log in on pages whose app starts on load (a signed-in user’s links may take its place)', async () => {
    const header = await prerendered('/register');
    expect(header.querySelector('.site-header__nav a.button--primary')).toBeNull();
    expect(header.querySelector('.button--placeholder')).toHaveAttribute('aria-hidden', 'true');
  });

  it('opens the login dialog when the address ends in #log-in, and leaves the address clean', async () => {
    window.history.replaceState(null, '', '/id/#log-in');
    await renderAt('/id/', <AuthDialogs />);
    expect(useOverlayStore.getState().open.login).toBe(true);
    expect(window.location.hash).toBe('');
    expect(window.location.pathname).toBe('/id/');
    window.history.replaceState(null, '', '/');
  });

  it('opens the login dialog when a #log-in link is followed on the page after the app started', async () => {
    window.history.replaceState(null, '', '/id/');
    await renderAt('/id/', <AuthDialogs />);
    expect(useOverlayStore.getState().open.login).toBe(false);
    window.location.hash = '#log-in';
    await waitFor(() => expect(useOverlayStore.getState().open.login).toBe(true));
    expect(window.location.hash).toBe('');
    window.history.replaceState(null, '', '/');
  });

  it('shows a signed-in user the dashboard and Sign out instead; signing out asks the server to end the session', async () => {
    fakeApi.on('post', '/api/v1/auth/logout', { success: true });
    useUserStore.getState().setUser(signedInUser());
    await renderAt('/dashboard', <SiteLayout>page</SiteLayout>);
    expect(screen.queryByRole('button', { name: 'Log in' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Dashboard' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(useUserStore.getState().user).toBeNull();
    await waitFor(() => expect(fakeApi.called()).toEqual(['POST /api/v1/auth/logout']));
    expect(fakeApi.calls('post', '/api/v1/auth/logout')[0]?.body).toBeUndefined();
    expect(screen.getByRole('button', { name: 'Log in' })).toBeInTheDocument();
  });

  it('signs out on the page even when the server cannot be reached, and says nothing of it', async () => {
    fakeApi.on('post', '/api/v1/auth/logout', fakeApi.unreachable());
    useUserStore.getState().setUser(signedInUser());
    await renderAt('/dashboard', <SiteLayout>page</SiteLayout>);
    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(useUserStore.getState().user).toBeNull();
    await waitFor(() => expect(fakeApi.called()).toEqual(['POST /api/v1/auth/logout']));
    expect(fakeApi.effects.toastNetworkError).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Log in' })).toBeInTheDocument();
  });

  it('offers no My subscription to a visitor', async () => {
    await renderAt('/', <SiteLayout>page</SiteLayout>);
    expect(screen.queryByRole('link', { name: 'My subscription' })).not.toBeInTheDocument();
  });

  it('leads a signed-in user to My subscription (account settings), in Indonesian under /id', async () => {
    useUserStore.getState().setUser(signedInUser());
    await renderAt('/id/dashboard', <SiteLayout>page</SiteLayout>);
    expect(screen.getByRole('link', { name: 'Langganan Saya' })).toHaveAttribute(
      'href',
      '/id/dashboard/modules/MySubscription',
    );
  });

  it('names My subscription in English under the English paths', async () => {
    useUserStore.getState().setUser(signedInUser());
    await renderAt('/dashboard', <SiteLayout>page</SiteLayout>);
    expect(screen.getByRole('link', { name: 'My subscription' })).toHaveAttribute(
      'href',
      '/dashboard/modules/MySubscription',
    );
  });

  it('switches language in the app and remembers the choice; its plain link asks the server to (hl)', async () => {
    document.cookie = 'locale=; path=/; max-age=0';
    await renderAt('/privacy-policy?source=sms#rights', <SiteLayout>page</SiteLayout>);
    const toIndonesian = screen.getByRole('link', { name: /Bahasa Indonesia/ });
    // What a click before the script ran follows: the server remembers the choice and drops hl.
    expect(toIndonesian).toHaveAttribute('href', '/id/privacy-policy?source=sms&hl=id#rights');
    await userEvent.click(toIndonesian);
    expect(document.cookie).toContain('locale=id');
    // Moved on in the app, without hl: the header is Indonesian now and switches back to English.
    expect(await screen.findByRole('link', { name: /English/ })).toHaveAttribute(
      'href',
      '/privacy-policy?source=sms&hl=en#rights',
    );
  });
});
