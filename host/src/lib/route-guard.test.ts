import { guardRedirect } from './route-guard';
import { expiredStatePath, isExpiredState } from './route-targets';

describe('route guards', () => {
  it('sends a signed-in user from a public route to the dashboard, in the same language', () => {
    expect(guardRedirect('public', true, '/faqs')).toBe('/dashboard/');
    expect(guardRedirect('public', true, '/id/faqs/')).toBe('/id/dashboard/');
    expect(guardRedirect('public', true, '/id')).toBe('/id/dashboard/');
  });

  it('sends an anonymous visitor from a protected route home to sign in, in the same language, remembering it', () => {
    expect(guardRedirect('protected', false, '/dashboard')).toBe('/');
    expect(guardRedirect('protected', false, '/id/dashboard/modules/MySubscription')).toBe(
      '/id/?next=%2Fid%2Fdashboard%2Fmodules%2FMySubscription',
    );
    // The reminder to pay's link: its query is kept.
    expect(guardRedirect('protected', false, '/dashboard/modules/MySubscription', '?renew=1')).toBe(
      '/?next=%2Fdashboard%2Fmodules%2FMySubscription%3Frenew%3D1',
    );
  });

  it('sends a signed-in user on the home page to the page it names to return to, and only to one of ours', () => {
    const next = '?next=%2Fid%2Fdashboard%2Fmodules%2FMySubscription%3Frenew%3D1';
    expect(guardRedirect('public', true, '/id/', next)).toBe('/id/dashboard/modules/MySubscription?renew=1');
    expect(guardRedirect('public', true, '/', '?next=%2F%2Fevil.example%2Fdashboard')).toBe('/dashboard/');
    expect(guardRedirect('public', true, '/', '?next=https%3A%2F%2Fevil.example')).toBe('/dashboard/');
    expect(guardRedirect('public', true, '/', '?next=%2Ffaqs')).toBe('/dashboard/');
    // Signed out, the home page stays (the login dialog opens over it).
    expect(guardRedirect('public', false, '/id/', next)).toBeNull();
  });

  it('lets everyone else through', () => {
    expect(guardRedirect('public', false, '/faqs')).toBeNull();
    // A consent link works for whoever received it, signed in or not.
    expect(guardRedirect('anyone', true, '/enter-link')).toBeNull();
    expect(guardRedirect('anyone', false, '/id/share')).toBeNull();
    expect(guardRedirect('protected', true, '/dashboard')).toBeNull();
  });
});

describe('the expired-subscription state', () => {
  it('is /dashboard/?s=-1&at=10, under /id in Indonesian', () => {
    expect(expiredStatePath('en')).toBe('/dashboard/?s=-1&at=10');
    expect(expiredStatePath('id')).toBe('/id/dashboard/?s=-1&at=10');
  });

  it('is recognised with or without the slash, whatever the order of the parameters', () => {
    expect(isExpiredState('/dashboard/', '?s=-1&at=10')).toBe(true);
    expect(isExpiredState('/id/dashboard', '?at=10&s=-1')).toBe(true);
    expect(isExpiredState('/dashboard/', '?s=-1')).toBe(false);
    expect(isExpiredState('/dashboard/modules/MySubscription', '?s=-1&at=10')).toBe(false);
  });
});
