import * as sessionStore from './session-store';
import { clearSession, isSignedIn, useUserStore } from './session-store';
import { useOverlayStore } from './overlay-store';
import { signedInUser } from '../../../jest/signed-in-user';

describe('session stores', () => {
  afterEach(() => clearSession());

  it('never touches a cookie: the session cookie is the server’s, HttpOnly; the stored user says who is signed in', () => {
    const cookieWrites = jest.spyOn(Document.prototype, 'cookie', 'set');
    try {
      useUserStore.getState().setUser(signedInUser());
      expect(isSignedIn()).toBe(true);
      clearSession();
      expect(isSignedIn()).toBe(false);
      expect(cookieWrites).not.toHaveBeenCalled();
      // Nothing holds a token on the page.
      expect(Object.keys(sessionStore).filter((name) => /token/i.test(name))).toEqual([]);
    } finally {
      cookieWrites.mockRestore();
    }
  });

  it('persists the user', () => {
    useUserStore.getState().setUser(signedInUser());
    const stored = JSON.parse(localStorage.getItem('kabari-user') ?? '{}');
    expect(stored.state).toEqual({ user: signedInUser() });
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
