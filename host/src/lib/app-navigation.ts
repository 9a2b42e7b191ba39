import { useEffect } from 'react';
import { useNavigate } from '@kabari/shared/routing/router';

type Navigate = ReturnType<typeof useNavigate>;

let routerNavigate: Navigate | null = null;

/**
 * Gives code outside React (the API interceptors, route rules) the router's navigate. Mounted once,
 * inside the router.
 */
export function useRegisterAppNavigation(): void {
  const navigate = useNavigate();
  useEffect(() => {
    routerNavigate = navigate;
    return () => {
      if (routerNavigate === navigate) routerNavigate = null;
    };
  }, [navigate]);
}

/** Navigates inside the app; before the router is up (or outside it), by a full page load. */
export function navigateTo(to: string, options: { replace?: boolean } = {}): void {
  if (routerNavigate) {
    routerNavigate(to, { replace: options.replace ?? false });
  } else if (options.replace) {
    window.location.replace(to);
  } else {
    window.location.assign(to);
  }
}
