import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

export const tokenCookieName = 'token';

export interface SessionUser {
  userCacheInfo: Record<string, unknown>;
}

interface TokenState {
  token: string | null;
  setToken: (token: string | null) => void;
}

function writeTokenCookie(token: string | null): void {
  if (typeof document === 'undefined') return;
  document.cookie = token
    ? `${tokenCookieName}=${encodeURIComponent(token)}; path=/; samesite=lax`
    : `${tokenCookieName}=; path=/; max-age=0; samesite=lax`;
}

function readTokenCookie(): string | null {
  if (typeof document === 'undefined') return null;
  const match = document.cookie.split('; ').find((part) => part.startsWith(`${tokenCookieName}=`));
  return match ? decodeURIComponent(match.slice(tokenCookieName.length + 1)) || null : null;
}

/** The session token: kept in memory and in the `token` cookie (path /), per spec §3. */
export const useTokenStore = create<TokenState>()((set) => ({
  token: readTokenCookie(),
  setToken: (token) => {
    writeTokenCookie(token);
    set({ token });
  },
}));

interface UserState {
  user: SessionUser | null;
  userSignInfo: Record<string, unknown> | null;
  mySubscriptionInfo: Record<string, unknown> | null;
  setUser: (user: SessionUser | null) => void;
  setUserSignInfo: (info: Record<string, unknown> | null) => void;
  setMySubscriptionInfo: (info: Record<string, unknown> | null) => void;
}

/** The signed-in user: `user` persists locally; sign and subscription info do not. */
export const useUserStore = create<UserState>()(
  persist(
    (set) => ({
      user: null,
      userSignInfo: null,
      mySubscriptionInfo: null,
      setUser: (user) => set({ user }),
      setUserSignInfo: (userSignInfo) => set({ userSignInfo }),
      setMySubscriptionInfo: (mySubscriptionInfo) => set({ mySubscriptionInfo }),
    }),
    {
      name: 'kabari-user',
      storage: createJSONStorage(() => localStorage),
      partialize: (state) => ({ user: state.user }),
    },
  ),
);

export function clearSession(): void {
  useTokenStore.getState().setToken(null);
  useUserStore.getState().setUser(null);
  useUserStore.getState().setUserSignInfo(null);
  useUserStore.getState().setMySubscriptionInfo(null);
}
