import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { ApiData } from '../api/api-types';

/** The signed-in user as sign-in returns it (the session token is not in it: it is an HttpOnly cookie). */
export type SessionUser = ApiData<'/api/v1/auth/login', 'post'>['user'];

interface UserState {
  user: SessionUser | null;
  setUser: (user: SessionUser | null) => void;
}

/**
 * The signed-in user, persisted locally. (The subscription is asked of the server where it is shown.)
 *
 * The session itself is the `token` cookie, which the server sets HttpOnly at sign-in and clears at sign-out or
 * when the session has ended: no script here reads or writes it. The stored user is what tells the app that
 * someone is signed in (for the route guards and the header); when the server no longer knows the session, its
 * first 401 clears the user too.
 */
export const useUserStore = create<UserState>()(
  persist(
    (set) => ({
      user: null,
      setUser: (user) => set({ user }),
    }),
    {
      name: 'kabari-user',
      storage: createJSONStorage(() => localStorage),
      partialize: (state) => ({ user: state.user }),
    },
  ),
);

/** Whether someone is signed in on this browser, as far as the app knows (a React hook). */
export function useSignedIn(): boolean {
  return useUserStore((state) => state.user !== null);
}

/** The same, outside React. */
export function isSignedIn(): boolean {
  return useUserStore.getState().user !== null;
}

/** Forgets the session on this browser (the server clears its cookie on sign-out or on a 401). */
export function clearSession(): void {
  useUserStore.getState().setUser(null);
}
