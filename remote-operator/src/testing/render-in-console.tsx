// Test helper: a console page at an address, inside the console's session and routes, as the console mounts it.
import type { ReactElement } from 'react';
import { act } from '@testing-library/react';
import { Route, Routes, useLocation } from '@kabari/shared/routing/router';
import { AntdScope } from '@kabari/shared/ui/antd-scope';
import { renderAt } from '../../../jest/render-with-i18n';
import { OperatorSessionProvider } from '../lib/operator-session';
import '../i18n/operator-namespace';

/** Where the router is, so that a test can see where the page sent the operator. */
function LocationProbe() {
  const { pathname, search } = useLocation();
  return <output data-testid="location">{`${pathname}${search}`}</output>;
}

/** A signed-in operator's session, as GET /api/v1/operator/session answers it. */
export function operatorSession(email = 'desk@kabari.example') {
  const now = Date.now();
  return {
    operator: { id: 'op-1', email },
    expiresAt: new Date(now + 12 * 3600_000).toISOString(),
    idleExpiresAt: new Date(now + 30 * 60_000).toISOString(),
  };
}

/** `page` at `url`, routed at `path` below /operator (and /id/operator), e.g. '/reports/:id'. */
export async function renderInConsole(url: string, path: string, page: ReactElement) {
  let rendered: Awaited<ReturnType<typeof renderAt>> | undefined;
  await act(async () => {
    rendered = await renderAt(
      url,
      <AntdScope>
        <OperatorSessionProvider>
          <Routes>
            <Route path={`/operator${path}`} element={page} />
            <Route path={`/id/operator${path}`} element={page} />
            <Route path="*" element={null} />
          </Routes>
          <LocationProbe />
        </OperatorSessionProvider>
      </AntdScope>,
    );
  });
  return rendered!;
}
