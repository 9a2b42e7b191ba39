import { Route, Routes } from '@kabari/shared/routing/router';
import { ErrorPage } from '../features/errors/error-page';
import { RouteView } from './route-view';
import { appRoutes, routePatterns } from '../lib/route-table';
import { useScrollOnNavigation } from '../lib/scroll-on-navigation';
import { useDocumentBoundary } from '../lib/document-boundary';

/** Every route, in English and under /id; any other path is the catch-all error page. */
export function AppRoutes() {
  useScrollOnNavigation();
  useDocumentBoundary();
  return (
    <Routes>
      {appRoutes.flatMap((route) =>
        routePatterns(route).map((path) => <Route key={path} path={path} element={<RouteView route={route} />} />),
      )}
      <Route path="*" element={<ErrorPage statusCode={404} />} />
    </Routes>
  );
}
