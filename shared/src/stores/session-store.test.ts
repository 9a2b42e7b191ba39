import { clearSession, useTokenStore, useUserStore } from './session-store';
import { useOverlayStore } from './overlay-store';

describe('session stores', () => {
  afterEach(() => clearSession());

  it('keeps the token in the `token` cookie at path /', () => {
    useTokenStore.getState().setToken('abc123');
    expect(document.cookie).toContain('token=abc123');
    clearSession();
    expect(document.cookie).not.toContain('token=abc123');
    expect(useTokenStore.getState().token).toBeNull();
  });

  it('persists only `user`, not the sign and subscription info', () => {
    useUserStore.getState().setUser({ userCacheInfo: { email: 'ana@example.com' } });
    useUserStore.getState().setMySubscriptionInfo({ expiredStatus: 0 });
    const stored = JSON.parse(localStorage.getItem('kabari-user') ?? '{}');
    expect(stored.state).toEqual({ user: { userCacheInfo: { email: 'ana@example.com' } } });
  });
});

describe('overlay flags', () => {
  it('are off by default and can be toggled or set', () => {
    const store = useOverlayStore.getState();
    expect(store.open).toEqual({ login: false, resetPwd: false, searching: false, payment: false });
    store.toggle('login');
    expect(useOverlayStore.getState().open.login).toBe(true);
    useOverlayStore.getState().set('login', false);
    useOverlayStore.getState().set('payment', true);
    expect(useOverlayStore.getState().open).toEqual({ login: false, resetPwd: false, searching: false, payment: true });
  });
});
