import type { SessionUser } from '@kabari/shared/stores/session-store';

/** A signed-in user as sign-in returns it, for the stores of the apps' tests. */
export function signedInUser(changes: Partial<SessionUser['userCacheInfo']> = {}): SessionUser {
  return {
    userCacheInfo: {
      id: 'u1',
      email: 'ana@example.com',
      displayName: 'Ana',
      phone: null,
      locale: 'en',
      createdAt: '2026-11-01T10:00:00.000Z',
      ...changes,
    },
  };
}
