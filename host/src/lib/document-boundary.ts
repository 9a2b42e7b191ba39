import { useLayoutEffect, useRef } from 'react';
import { useLocation } from '@kabari/shared/routing/router';
import { findAppRoute } from './route-table';

/** The recipient's pages: the consent screen and what follows it, open to anyone with the link. */
export function isRecipientPage(pathname: string): boolean {
  return findAppRoute(pathname)?.access === 'anyone';
}

const reloadPage = () => window.location.reload();

/**
 * The server gives the recipient's pages a Permissions-Policy of their own (the position allowed; payment and the
 * clipboard off) and every other page another (the position off). A document keeps the policy it was loaded with,
 * so a move across that line inside the app (a recipient following the logo to the home page) loads the new page as
 * a document of its own. Before paint: the page is not shown under the other policy.
 */
export function useDocumentBoundary(reload: () => void = reloadPage): void {
  const { pathname } = useLocation();
  const loadedAsRecipient = useRef<boolean | null>(null);
  useLayoutEffect(() => {
    const recipient = isRecipientPage(pathname);
    if (loadedAsRecipient.current === null) loadedAsRecipient.current = recipient;
    else if (recipient !== loadedAsRecipient.current) reload();
  }, [pathname, reload]);
}
