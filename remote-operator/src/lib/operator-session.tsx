import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { fetchSession, type OperatorSession } from './session-api';
import { failureOf } from './api-failure';

type SessionState =
  | { status: 'checking' }
  | { status: 'signed-in'; session: OperatorSession }
  /** `ended`: a session the console had ran out (idle, too old, or revoked), so the sign-in page says so. */
  | { status: 'signed-out'; ended: boolean };

interface SessionContext {
  state: SessionState;
  /** After signing in or enrolling: the session the server answered with. */
  signedIn(session: OperatorSession): void;
  /** Signed out on purpose. */
  signedOut(): void;
  /** A console call answered 404: the session may have ended, or the object is not there. Resolves true if ended. */
  checkSession(): Promise<boolean>;
  /** A console call went through: the server's idle clock started again. */
  touch(): void;
}

const Context = createContext<SessionContext | null>(null);

/**
 * The operator's session as the console knows it. The server is the judge (every console route answers 404 without
 * a current session); the console also signs out by itself once the session has been idle past its idle limit or
 * has reached its end, so that an unattended screen does not go on showing reports.
 */
export function OperatorSessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: 'checking' });
  const idleWindow = useRef(0);
  const [lastActivity, setLastActivity] = useState(0);

  const signedIn = useCallback((session: OperatorSession) => {
    idleWindow.current = Math.max(0, Date.parse(session.idleExpiresAt) - Date.now());
    setLastActivity(Date.now());
    setState({ status: 'signed-in', session });
  }, []);

  const checkSession = useCallback(async () => {
    try {
      signedIn(await fetchSession());
      return false;
    } catch (error) {
      if (failureOf(error) !== 'gone') return false;
      setState((current) => ({ status: 'signed-out', ended: current.status === 'signed-in' }));
      return true;
    }
  }, [signedIn]);

  useEffect(() => {
    let current = true;
    fetchSession().then(
      (session) => current && signedIn(session),
      () => current && setState({ status: 'signed-out', ended: false }),
    );
    return () => {
      current = false;
    };
  }, [signedIn]);

  // The end of the session, whichever comes first: its hard end, or the idle limit after the last call.
  const session = state.status === 'signed-in' ? state.session : null;
  useEffect(() => {
    if (!session) return;
    const end = Math.min(Date.parse(session.expiresAt), lastActivity + idleWindow.current);
    const timer = setTimeout(() => setState({ status: 'signed-out', ended: true }), Math.max(0, end - Date.now()));
    return () => clearTimeout(timer);
  }, [session, lastActivity]);

  const value = useMemo<SessionContext>(
    () => ({
      state,
      signedIn,
      signedOut: () => setState({ status: 'signed-out', ended: false }),
      checkSession,
      touch: () => setLastActivity(Date.now()),
    }),
    [state, signedIn, checkSession],
  );
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

export function useOperatorSession(): SessionContext {
  const context = useContext(Context);
  if (!context) throw new Error('useOperatorSession outside OperatorSessionProvider');
  return context;
}
