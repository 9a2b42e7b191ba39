import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { initI18n } from '@kabari/shared/i18n/create-i18n';
import { localeFromPath } from '@kabari/shared/i18n/locale';
import { MemoryRouter, Route, Routes } from '@kabari/shared/routing/router';
import { routePaths } from '@kabari/shared/routing/route-paths';
import { clearSession, useUserStore } from '@kabari/shared/stores/session-store';
import '../i18n/host-namespace';
import { loadRemoteModule } from '../lib/federation-remotes';
import { RouteView } from './route-view';
import { appRoutes } from '../lib/route-table';
import { LocationProbe } from '../testing/location-probe';
import { AppRoutes } from './app-routes';
import { signedInUser } from '../../../jest/signed-in-user';
import { fakeApi } from '../../../jest/fake-api';
import { subscriptionInfoPath } from '../features/subscription/subscription-info';

/** The whole text, not a part of it: toHaveTextContent with a string matches any text that contains it. */
const exactly = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

jest.mock('../lib/federation-remotes', () => ({
  loadRemoteModule: jest.fn(async (remote: string, exposed: string) => ({
    default: () => <h1>{`${remote}/${exposed}`}</h1>,
  })),
  resetRemote: jest.fn(),
}));

async function renderApp(url: string) {
  await initI18n(localeFromPath(url));
  // Async act: the redirects and lazy pages settle inside it.
  await act(async () => {
    render(
      <MemoryRouter initialEntries={[url]}>
        <AppRoutes />
        <LocationProbe />
      </MemoryRouter>,
    );
  });
}

const publicPaths = appRoutes.filter((route) => route.access === 'public').map((route) => route.path);
const protectedPaths = appRoutes.filter((route) => route.access === 'protected').map((route) => route.path);
// The recipient's pages: a consent link works for whoever opens it, signed in or not.
const anyonePaths = appRoutes.filter((route) => route.access === 'anyone').map((route) => route.path);

describe('AppRoutes', () => {
  // The subscription check is tested on its own; here the server knows no subscription (404: nothing to act on).
  beforeEach(() => fakeApi.on('get', subscriptionInfoPath, fakeApi.fail(404, 'No subscription')));
  // A protected page checks the subscription after it shows: waited for, so that no call outlives its test.
  const subscriptionChecked = () =>
    waitFor(() => expect(fakeApi.called()).toContain('GET /api/v1/personnal/subscribe/info'));
  afterEach(() => {
    cleanup();
    clearSession();
  });

  it("knows every route: 17 public (4 of them the recipient's, open to anyone), 5 protected", () => {
    expect(publicPaths).toHaveLength(13);
    expect(anyonePaths).toEqual(['/enter-link', '/location-failed', '/share', '/my-requests']);
    expect(protectedPaths).toEqual([
      '/dashboard',
      '/dashboard/modules/SuccessModal',
      '/dashboard/modules/MySubscription',
      '/dashboard/modules/subscriptionExpiredModal',
      '/dashboard/modules/cancleMySubscriptionModal',
    ]);
  });

  it.each(publicPaths.flatMap((path) => [path, path === '/' ? '/id/' : `/id${path}/`]))(
    'a signed-in user on %s lands on the dashboard in the same language',
    async (path) => {
      useUserStore.getState().setUser(signedInUser());
      await renderApp(path);
      const expected = path.startsWith('/id') ? '/id/dashboard/' : '/dashboard/';
      expect(await screen.findByTestId('location')).toHaveTextContent(exactly(expected));
      expect(await screen.findByRole('heading', { name: 'dashboard/dashboard-page' })).toBeInTheDocument();
      await subscriptionChecked();
    },
  );

  it.each(protectedPaths.flatMap((path) => [path, `/id${path}/`]))(
    'an anonymous visitor on %s lands on the home page in the same language, remembering the page',
    async (path) => {
      await renderApp(path);
      const home = path.startsWith('/id') ? '/id/' : '/';
      // The dashboard itself needs no remembering: signing in leads there.
      const next = /^(\/id)?\/dashboard\/?$/.test(path) ? '' : `?next=${encodeURIComponent(path)}`;
      expect(await screen.findByTestId('location')).toHaveTextContent(exactly(`${home}${next}`));
      expect(await screen.findByRole('heading', { name: 'search/home-page' })).toBeInTheDocument();
    },
  );

  it.each(anyonePaths.flatMap((path) => [path, `/id${path}/`]))(
    'a signed-in user stays on the recipient page %s',
    async (path) => {
      useUserStore.getState().setUser(signedInUser());
      await renderApp(path);
      expect(screen.getByTestId('location')).toHaveTextContent(exactly(path));
      expect(await screen.findByRole('heading', { name: /^share\// })).toBeInTheDocument();
    },
  );

  it('shows an anonymous visitor the recipient pages', async () => {
    await renderApp('/id/enter-link/');
    expect(await screen.findByRole('heading', { name: 'share/enter-link-page' })).toBeInTheDocument();
    cleanup();
    await renderApp(routePaths.locationFailed);
    expect(await screen.findByRole('heading', { name: 'share/location-failed-page' })).toBeInTheDocument();
  });

  it('opens a modal route over the dashboard, keeping the dashboard', async () => {
    useUserStore.getState().setUser(signedInUser());
    await renderApp('/dashboard/modules/cancleMySubscriptionModal');
    expect(await screen.findByRole('heading', { name: 'dashboard/dashboard-page' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(exactly('/dashboard/modules/cancleMySubscriptionModal'));
    await subscriptionChecked();
  });

  it('shows the catch-all error page for any other path, signed in or not', async () => {
    await renderApp('/id/tidak-ada');
    expect(await screen.findByRole('heading', { name: 'Halaman Tidak Ditemukan' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(exactly('/id/tidak-ada'));
  });

  it('loads each page from its remote by name', async () => {
    await renderApp('/register');
    expect(loadRemoteModule).toHaveBeenCalledWith('billing', 'register-result-page');
  });
});

describe('RouteView validity check', () => {
  const route = {
    name: 'enterLink' as const,
    path: '/enter-link',
    access: 'public' as const,
    page: { remote: 'share' as const, exposed: 'enter-link-page' },
    isValid: ({ search }: { search: string }) => new URLSearchParams(search).has('token'),
  };

  async function renderRoute(url: string) {
    await initI18n('en');
    await act(async () => {
      render(
        <MemoryRouter initialEntries={[url]}>
          <Routes>
            <Route path="/enter-link" element={<RouteView route={route} />} />
          </Routes>
        </MemoryRouter>,
      );
    });
  }

  it("shows 'Page Not Found: {path}' when the check fails", async () => {
    await renderRoute('/enter-link?nothing=1');
    expect(await screen.findByText('Page Not Found: /enter-link')).toBeInTheDocument();
  });

  it('shows the page when it passes', async () => {
    await renderRoute('/enter-link?token=abc');
    expect(await screen.findByRole('heading', { name: 'share/enter-link-page' })).toBeInTheDocument();
  });
});
