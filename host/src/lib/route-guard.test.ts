import { guardRedirect } from './route-guard';
import { expiredStatePath, isExpiredState } from './route-targets';

describe('route guards', () => {
  it('sends a signed-in user from a public route to the dashboard, in the same language', () => {
    expect(guardRedirect('public', true, '/faqs')).toBe('/dashboard/');
    expect(guardRedirect('public', true, '/id/faqs/')).toBe('/id/dashboard/');
    expect(guardRedirect('public', true, '/id')).toBe('/id/dashboard/');
  });

  it('sends an anonymous visitor from a protected route home, in the same language', () => {
    expect(guardRedirect('protected', false, '/dashboard')).toBe('/');
    expect(guardRedirect('protected', false, '/id/dashboard/modules/MySubscription')).toBe('/id/');
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
