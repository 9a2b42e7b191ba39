import { useEffect, useState } from 'react';
import { localeFromPath, type Locale } from '@kabari/shared/i18n/locale';
import { useHydrated } from '@kabari/shared/ui/use-hydrated';
import { shareApi, ShareApiError, type LinkInfo } from './share-api';

export type LinkLoad =
  { kind: 'checking' } | { kind: 'invalid' } | { kind: 'error' } | { kind: 'ready'; link: LinkInfo };

/** Where a recipient's page is and how it moves on: what the host (or the server, or a test) gives it. */
export interface RecipientPageProps {
  /** The page's address. Read from the browser when not given (the host's app mounts a page without props). */
  location?: { pathname: string; search: string };
  /**
   * Goes to another of the recipient's pages. By default a full page load: the server serves each of these
   * pages whole, and none of them needs the app's router.
   */
  navigate?: (path: string, options?: { replace?: boolean }) => void;
}

function browserNavigate(path: string, options?: { replace?: boolean }): void {
  if (options?.replace) window.location.replace(path);
  else window.location.assign(path);
}

/** The page's address, language, query string (once hydrated: prerendered HTML knows no query) and navigation. */
export function useRecipientPage(props: RecipientPageProps): {
  locale: Locale;
  params: URLSearchParams;
  hydrated: boolean;
  navigate: NonNullable<RecipientPageProps['navigate']>;
} {
  const hydrated = useHydrated();
  const location = props.location ?? (typeof window === 'undefined' ? { pathname: '/', search: '' } : window.location);
  return {
    locale: localeFromPath(location.pathname),
    params: new URLSearchParams(hydrated ? location.search : ''),
    hydrated,
    navigate: props.navigate ?? browserNavigate,
  };
}

/**
 * The link behind the token: 'checking' until hydrated (the prerendered page cannot know the token, and
 * hydration must match it), then the server's answer.
 */
export function useLink(token: string | null) {
  const hydrated = useHydrated();
  const [load, setLoad] = useState<LinkLoad>({ kind: 'checking' });

  useEffect(() => {
    if (!token) return;
    let current = true;
    shareApi
      .link(token)
      .then((link) => current && setLoad({ kind: 'ready', link }))
      .catch((error: unknown) => {
        if (!current) return;
        setLoad({ kind: error instanceof ShareApiError && error.status === 404 ? 'invalid' : 'error' });
      });
    return () => {
      current = false;
    };
  }, [token]);

  const update = (change: Partial<LinkInfo>) =>
    setLoad((previous) =>
      previous.kind === 'ready' ? { kind: 'ready', link: { ...previous.link, ...change } } : previous,
    );

  const state: LinkLoad = !hydrated ? { kind: 'checking' } : token ? load : { kind: 'invalid' };
  return { load: state, update };
}

/** The token from the query string (`t` as a short form). */
export function tokenFrom(params: URLSearchParams): string | null {
  return params.get('token') ?? params.get('t');
}

/** What a recipient's page opened from the link knows: the query string, its language, the token and its link. */
export function useRecipientLink(props: RecipientPageProps) {
  const page = useRecipientPage(props);
  const token = tokenFrom(page.params);
  return { ...page, token, ...useLink(token) };
}
