import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation } from '@kabari/shared/routing/router';
import { useOverlayStore } from '@kabari/shared/stores/overlay-store';
import { useSignedIn } from '@kabari/shared/stores/session-store';
import { returnToOf } from '../../lib/return-to';

const loadLoginDialog = () => import('./login-dialog');
const loadResetPasswordDialog = () => import('./reset-password-dialog');
const LoginDialog = lazy(loadLoginDialog);
const ResetPasswordDialog = lazy(loadResetPasswordDialog);

/** Starts loading the login dialog before it is asked for (the Log in button's hover or focus). */
export function preloadLoginDialog(): void {
  void loadLoginDialog().catch(() => undefined);
}

/** On any page, this fragment opens the login dialog: the Log in link of a header that is plain HTML. */
export const logInHash = '#log-in';

/**
 * The address's `#log-in` opens the login dialog (and leaves the address): on arrival, or when a Log in link is
 * followed on the page (one tapped just as the app was starting).
 */
function useLogInFromAddress(): void {
  const open = useOverlayStore((state) => state.set);
  useEffect(() => {
    const openFromAddress = () => {
      if (window.location.hash !== logInHash) return;
      window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
      open('login', true);
    };
    openFromAddress();
    window.addEventListener('hashchange', openFromAddress);
    return () => window.removeEventListener('hashchange', openFromAddress);
  }, [open]);
}

/**
 * A signed-out visitor sent to the home page from a page that needs signing in (the address names it) is asked to
 * sign in at once, on each arrival; closed, the dialog stays closed.
 */
function useLogInToReturn(): void {
  const open = useOverlayStore((state) => state.set);
  const { search } = useLocation();
  const signedIn = useSignedIn();
  const wanted = !signedIn && returnToOf(search) !== null;
  useEffect(() => {
    if (wanted) open('login', true);
  }, [wanted, search, open]);
}

/**
 * The login and reset dialogs, mounted globally (over every page). Each loads (with antd's modal and form) the
 * first time its overlay flag is set, and stays mounted afterwards so that closing animates.
 */
export function AuthDialogs() {
  useLogInFromAddress();
  useLogInToReturn();
  const loginOpen = useOverlayStore((state) => state.open.login);
  const resetOpen = useOverlayStore((state) => state.open.resetPwd);
  const [wanted, setWanted] = useState({ login: false, reset: false });
  if ((loginOpen && !wanted.login) || (resetOpen && !wanted.reset)) {
    setWanted({ login: wanted.login || loginOpen, reset: wanted.reset || resetOpen });
  }
  return (
    <>
      {/* Nothing at all until asked for: a prerendered page hydrates against exactly its HTML. */}
      {wanted.login && (
        <Suspense fallback={null}>
          <LoginDialog />
        </Suspense>
      )}
      {wanted.reset && (
        <Suspense fallback={null}>
          <ResetPasswordDialog />
        </Suspense>
      )}
    </>
  );
}
