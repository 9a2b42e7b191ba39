import { useLocation } from '@kabari/shared/routing/router';

/** Test helper: shows where the router is, so a test can assert redirects. */
export function LocationProbe() {
  const { pathname, search, hash } = useLocation();
  return <output data-testid="location">{`${pathname}${search}${hash}`}</output>;
}
