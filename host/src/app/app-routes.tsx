import { Route, Routes } from '@kabari/shared/routing/router';
import type { RemoteName } from '@kabari/shared/config/runtime-config';
import { routePaths } from '@kabari/shared/routing/route-paths';
import { RemotePage } from '../features/federation/remote-page';
import { ErrorPage } from '../features/errors/error-page';

interface RemoteRoute {
  path: string;
  remote: RemoteName;
  exposed: string;
}

/** Which remote serves which page. The host never imports a remote's source: only these names. */
export const remoteRoutes: RemoteRoute[] = [
  { path: routePaths.home, remote: 'search', exposed: 'home-page' },
  { path: routePaths.dashboard, remote: 'dashboard', exposed: 'dashboard-page' },
  { path: routePaths.register, remote: 'billing', exposed: 'register-result-page' },
  { path: routePaths.enterLink, remote: 'share', exposed: 'enter-link-page' },
];

/** Every route has an English path and its /id twin; React Router ignores a trailing slash. */
function twinPaths(path: string): string[] {
  return [path, path === '/' ? '/id' : `/id${path}`];
}

export function AppRoutes() {
  return (
    <Routes>
      {remoteRoutes.flatMap(({ path, remote, exposed }) =>
        twinPaths(path).map((twin) => (
          <Route
            key={twin}
            path={twin}
            // Keyed so that moving between two remote pages never carries one page's error state over.
            element={<RemotePage key={`${remote}/${exposed}`} remote={remote} exposed={exposed} />}
          />
        )),
      )}
      <Route path="*" element={<ErrorPage statusCode={404} />} />
    </Routes>
  );
}
