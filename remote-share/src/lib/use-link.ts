import { useEffect, useState } from 'react';
import { localeFromPath, type Locale } from '@kabari/shared/i18n/locale';
import { useHydrated } from '@kabari/shared/ui/use-hydrated';
import { isApiError } from '@kabari/shared/api/api-error';
import { apiUrl } from '@kabari/shared/api/api-fetch';
import type { ApiSchema } from '@kabari/shared/api/api-types';
import { shareApi, type LinkInfo } from './share-api';

/** The link's states that may still change without this page: it listens for changes while in one. */
const OPEN_STATES: ReadonlySet<LinkInfo['state']> = new Set(['open', 'sharing']);

/** What the server renders a recipient's page with and gives its script (the page's data block). */
type RecipientPageData = ApiSchema<'RecipientPageData'>;

/**
 * The link behind the page's token, as far as it is known. Ready: exactly what GET /api/v1/share/links/{token}
 * answers, whether the page asked for it or the server gave it with the page (checked there by the route's schema).
 */
export type LinkLoad = { kind: 'checking' } | RecipientPageData['link'];

/** Where a recipient's page is and how it moves on: what the host (or the server, or a test) gives it. */
export interface RecipientPageProps {
  /** The page's address. Read from the browser when not given (the host's app mounts a page without props). */
  location?: { pathname: string; search: string };
  /**
   * Goes to another of the recipient's pages. By default a full page load: the server serves each of these
   * pages whole, and none of them needs the app's router.
   */
  navigate?: (path: string, options?: { replace?: boolean }) => void;
  /**
   * The link as the server found it when it rendered this page for its address (the query string included): the
   * page shows it from the first render, without asking again. Absent: a prerendered page, which asks once hydrated.
   */
  link?: LinkLoad;
  /** A form sent without the page's script that the server refused: which, and the server's words. */
  failure?: RecipientFailure;
  /**
   * What this browser shared through the plain form (its Share sent before, or without, the page's script), as the
   * server found it: the thank-you page names the approximate place from the first render.
   */
  shared?: RecipientPageData['shared'];
  /**
   * The consent overview's step as the server rendered it for this browser (the address, the code sent, or the list
   * of a live session), so that the page starts there and its forms work without the script.
   */
  overview?: ApiSchema<'OverviewPageView'>;
}

/**
 * A form sent without the page's script that the server refused: which (the recipient's actions that are plain forms
 * too, so that they work before or without the script), and the server's words.
 */
export type RecipientFailure = NonNullable<RecipientPageData['failure']>;

function browserNavigate(path: string, options?: { replace?: boolean }): void {
  if (options?.replace) window.location.replace(path);
  else window.location.assign(path);
}

/**
 * The page's address, language, query string and navigation. The query string is known to a page the server
 * rendered for its address; a prerendered page (built once for every address) reads it once hydrated. `hydrated`:
 * the page's script runs (its buttons work).
 */
export function useRecipientPage(props: RecipientPageProps): {
  locale: Locale;
  params: URLSearchParams;
  addressKnown: boolean;
  hydrated: boolean;
  navigate: NonNullable<RecipientPageProps['navigate']>;
} {
  const hydrated = useHydrated();
  const location = props.location ?? (typeof window === 'undefined' ? { pathname: '/', search: '' } : window.location);
  const addressKnown = hydrated || props.link !== undefined;
  return {
    locale: localeFromPath(location.pathname),
    params: new URLSearchParams(addressKnown ? location.search : ''),
    addressKnown,
    hydrated,
    navigate: props.navigate ?? browserNavigate,
  };
}

/**
 * The link behind the token: the server's answer given with the page, or else 'checking' until hydrated (the
 * prerendered page cannot know the token, and hydration must match it), then the server's answer to the page.
 */
export function useLink(token: string | null, initial?: LinkLoad) {
  const hydrated = useHydrated();
  const [load, setLoad] = useState<LinkLoad>(initial ?? { kind: 'checking' });

  useEffect(() => {
    if (!token || initial) return;
    let current = true;
    shareApi
      .link(token)
      .then((link) => current && setLoad({ kind: 'ready', link }))
      .catch((error: unknown) => {
        if (!current) return;
        setLoad({ kind: isApiError(error) && error.status === 404 ? 'invalid' : 'error' });
      });
    return () => {
      current = false;
    };
    // The server's answer stands for the page's token: asked once, with the page.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token]);

  // While the link can still end by someone else's hand (the requester cancels, their account is suspended, another
  // tab answers), the page listens for it: the server says only that the request changed, and the page asks again.
  const listening = hydrated && token !== null && load.kind === 'ready' && OPEN_STATES.has(load.link.state);
  useEffect(() => {
    if (!listening || !token || typeof EventSource === 'undefined') return;
    let current = true;
    const refresh = () =>
      shareApi.link(token).then(
        (link) => current && setLoad({ kind: 'ready', link }),
        // The next change, or the page's own next call, tells it.
        () => undefined,
      );
    const source = new EventSource(apiUrl('/api/v1/share/links/{token}/events', { token }));
    let opened = 0;
    source.onopen = () => {
      // After a reconnect (the stream ends every quarter hour, a network drops), what changed meanwhile was not told.
      if (opened++ > 0) void refresh();
    };
    source.onerror = () => {
      // Refused (the link ended meanwhile: 409; too many tabs: 429): the browser does not try again; the page asks.
      if (source.readyState === EventSource.CLOSED) void refresh();
    };
    source.addEventListener('changed', () => void refresh());
    return () => {
      current = false;
      source.close();
    };
  }, [listening, token]);

  const update = (change: Partial<LinkInfo>) =>
    setLoad((previous) =>
      previous.kind === 'ready' ? { kind: 'ready', link: { ...previous.link, ...change } } : previous,
    );

  const state: LinkLoad = initial
    ? token
      ? load
      : { kind: 'invalid' }
    : !hydrated
      ? { kind: 'checking' }
      : token
        ? load
        : { kind: 'invalid' };
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
  return { ...page, token, ...useLink(token, props.link) };
}
