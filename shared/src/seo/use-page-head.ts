import { createContext, useContext, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
// By its shared name, not '../routing/router': a relative import is bundled into each app that uses this
// module, with a router of its own that sees no <Router>. The shared name is the host's one instance.
import { useLocation } from '@kabari/shared/routing/router';
import { canonicalPath, pageAlternates, type PageHead } from './page-head';

/** Set by the build-time prerender: a page's usePageHead hands it its head while it renders (effects never run there). */
export const PageHeadCollector = createContext<((head: PageHead) => void) | null>(null);

function setMeta(name: string, content: string | null): void {
  let meta = document.head.querySelector<HTMLMetaElement>(`meta[name="${name}"]`);
  if (content === null) {
    meta?.remove();
    return;
  }
  if (!meta) {
    meta = document.createElement('meta');
    meta.name = name;
    document.head.append(meta);
  }
  meta.content = content;
}

function removeLinks(): void {
  for (const link of document.head.querySelectorAll('link[rel="canonical"], link[rel="alternate"][hreflang]')) {
    link.remove();
  }
}

function addLink(rel: string, path: string, hreflang?: string): void {
  const link = document.createElement('link');
  link.rel = rel;
  link.href = new URL(path, window.location.origin).href;
  if (hreflang) link.hreflang = hreflang;
  document.head.append(link);
}

/**
 * A page's title, description and language alternates. Prerendered pages carry them in their HTML
 * (see define-prerender.tsx); on client-side navigation this keeps document.title and the <head> in
 * step. Leaving the page resets the title to the brand and drops its links, so a page that sets no
 * head of its own does not show the last one's.
 */
export function usePageHead(head: PageHead): void {
  useContext(PageHeadCollector)?.(head);
  const { pathname } = useLocation();
  const { t } = useTranslation('common');
  const brand = t('brand');
  const { title, description, indexable = true } = head;

  useEffect(() => {
    document.title = title;
    setMeta('description', description);
    setMeta('robots', indexable ? null : 'noindex');
    removeLinks();
    addLink('canonical', canonicalPath(pathname));
    for (const alternate of pageAlternates(pathname)) addLink('alternate', alternate.path, alternate.hreflang);
    return () => {
      document.title = brand;
      setMeta('robots', null);
      removeLinks();
    };
  }, [title, description, indexable, pathname, brand]);
}
