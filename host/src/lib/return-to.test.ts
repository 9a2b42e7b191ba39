import { returnToOf, safeReturnTo, signInPath } from './return-to';

describe('the page to return to after signing in', () => {
  it('is one of the app’s protected pages, in either language, with its query', () => {
    expect(safeReturnTo('/dashboard/modules/MySubscription?renew=1')).toBe('/dashboard/modules/MySubscription?renew=1');
    expect(safeReturnTo('/id/dashboard/modules/MySubscription/?renew=1')).toBe(
      '/id/dashboard/modules/MySubscription/?renew=1',
    );
    expect(safeReturnTo('/dashboard/')).toBe('/dashboard/');
    expect(safeReturnTo('/id/dashboard/modules/cancleMySubscriptionModal')).toBe(
      '/id/dashboard/modules/cancleMySubscriptionModal',
    );
    // The fragment is dropped: only the path and the query travel.
    expect(safeReturnTo('/dashboard/?s=-1&at=10#log-in')).toBe('/dashboard/?s=-1&at=10');
  });

  it('is never another site, however the address is written', () => {
    for (const address of [
      'https://evil.example/dashboard',
      '//evil.example/dashboard',
      '///evil.example/dashboard',
      '/\\evil.example/dashboard',
      '\\\\evil.example/dashboard',
      '/\\/evil.example',
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      ' /dashboard',
      '/dashboard\n//evil.example',
      '/dashboard\t',
      'dashboard',
      '',
      '/dashboard/../..//evil.example',
      '/%2F%2Fevil.example',
    ]) {
      expect([address, safeReturnTo(address)]).toEqual([address, null]);
    }
  });

  it('is never a public page, a recipient’s page, the console or a path the app does not have', () => {
    for (const address of [
      '/',
      '/id/',
      '/faqs',
      '/register?id=1',
      '/enter-link',
      '/operator',
      '/dashboard/x',
      '/nope',
    ]) {
      expect([address, safeReturnTo(address)]).toEqual([address, null]);
    }
    expect(safeReturnTo(null)).toBeNull();
    expect(safeReturnTo(undefined)).toBeNull();
    expect(safeReturnTo(`/dashboard/?q=${'a'.repeat(2000)}`)).toBeNull();
  });

  it('is read from the home page’s `next`, and written there by signInPath', () => {
    const path = signInPath('id', '/id/dashboard/modules/MySubscription?renew=1');
    expect(path).toBe('/id/?next=%2Fid%2Fdashboard%2Fmodules%2FMySubscription%3Frenew%3D1');
    expect(returnToOf(path.slice(path.indexOf('?')))).toBe('/id/dashboard/modules/MySubscription?renew=1');
    expect(returnToOf('?next=https%3A%2F%2Fevil.example%2F')).toBeNull();
    expect(returnToOf('')).toBeNull();
    // Nothing to remember: the home page alone, as signing in leads to the dashboard anyway.
    expect(signInPath('en', null)).toBe('/');
    expect(signInPath('en', '/dashboard/')).toBe('/');
    expect(signInPath('id', '/id/dashboard')).toBe('/id/');
  });
});
