import { useEffect, useState } from 'react';
import { localeFromPath } from '@kabari/shared/i18n/locale';
import { useLocation, useSearchParams } from '@kabari/shared/routing/router';
import { useHydrated } from '@kabari/shared/ui/use-hydrated';
import { shareApi, ShareApiError, type LinkInfo } from './share-api';

export type LinkLoad =
  { kind: 'checking' } | { kind: 'invalid' } | { kind: 'error' } | { kind: 'ready'; link: LinkInfo };

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
export function useRecipientLink() {
  const [params] = useSearchParams();
  const { pathname } = useLocation();
  const token = tokenFrom(params);
  return { params, locale: localeFromPath(pathname), token, ...useLink(token) };
}
