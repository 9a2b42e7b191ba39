import { useEffect, type ReactNode } from 'react';
import { Link, useLocation, useNavigate } from '@kabari/shared/routing/router';
import { useTranslation } from 'react-i18next';
import { localeFromPath, localizePath, writeLocaleCookie, type Locale } from '@kabari/shared/i18n/locale';
import { routePaths } from '@kabari/shared/routing/route-paths';
import { useOverlayStore } from '@kabari/shared/stores/overlay-store';
import { clearSession, useSignedIn } from '@kabari/shared/stores/session-store';
import { useHydrated } from '@kabari/shared/ui/use-hydrated';
import { hostNamespace } from '../i18n/host-namespace';
import { navigateTo } from '../lib/app-navigation';
import { findAppRoute } from '../lib/route-table';
import { currentLocale, homePath } from '../lib/route-targets';
import { logInHash, preloadLoginDialog } from '../features/auth/auth-dialogs';

/**
 * Keeps i18next and <html lang> in step with the /id prefix of the URL. The locale cookie is the visitor's choice,
 * written by the language switch; the server reads it only to send the bare address `/` to `/id/`.
 */
function useLocaleFromUrl(): Locale {
  const { pathname } = useLocation();
  const { i18n } = useTranslation();
  const locale = localeFromPath(pathname);
  useEffect(() => {
    if (i18n.language !== locale) void i18n.changeLanguage(locale);
    document.documentElement.lang = locale;
  }, [i18n, locale]);
  return locale;
}

/**
 * The same page in the other language. Clicked once the page's script runs, it remembers the choice (the locale
 * cookie) and moves on in the app. Before that (a prerendered page still loading), it is a plain link whose `hl`
 * parameter has the server remember the choice and send the browser on to the clean address.
 */
function LanguageSwitch({ locale }: { locale: Locale }) {
  const { pathname, search, hash } = useLocation();
  const navigate = useNavigate();
  const { t } = useTranslation('common');
  const other: Locale = locale === 'en' ? 'id' : 'en';
  const target = `${localizePath(pathname, other)}${search}${hash}`;
  const query = new URLSearchParams(search);
  query.set('hl', other);
  return (
    <a
      className="language-switch"
      href={`${localizePath(pathname, other)}?${query}${hash}`}
      hrefLang={other}
      lang={other}
      onClick={(event) => {
        // A new tab or window goes through the server, which remembers the choice there.
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        writeLocaleCookie(other);
        navigate(target);
      }}
      aria-label={`${t('language.label')}: ${t(`language.${other}`)}`}
    >
      {t(`language.${other}`)}
    </a>
  );
}

function signOut(): void {
  // The app forgets the user at once; the server revokes the session and clears its cookie (which no script can
  // touch) when the request arrives. The API client loads lazily: the pages a visitor lands on do not need it.
  clearSession();
  // From a protected page, home plainly: left to the guard, the page would be remembered to return to after signing
  // in, and the login dialog opened. Elsewhere (a recipient's page) the visitor stays.
  if (findAppRoute(window.location.pathname)?.access === 'protected') {
    navigateTo(homePath(currentLocale()), { replace: true });
  }
  import('../features/auth/auth-api').then(({ logOut }) => logOut()).catch(() => undefined);
}

/**
 * The header's Log in as plain HTML: a link whose `#log-in` opens the dialog once the app runs. On a page whose app
 * starts on first use, the page's own fragment (following it starts the app); elsewhere the home page's.
 */
function LogInLink({ href }: { href: string }) {
  const { t } = useTranslation(hostNamespace);
  return (
    <a className="button button--primary" href={href}>
      {t('nav.logIn')}
    </a>
  );
}

/**
 * Opens the login dialog. It works only once hydrated. Until then, on the public pages (which a signed-in user is
 * sent away from, and whose app starts only on the visitor's first use) the link stands in, looking the same;
 * on other pages an invisible stand-in holds its place for the moment until hydration, when a signed-in user's
 * links may take it: the header does not move.
 */
function LogInButton({ usable, locale }: { usable: boolean; locale: Locale }) {
  const { t } = useTranslation(hostNamespace);
  const openLogin = useOverlayStore((state) => state.set);
  const route = findAppRoute(useLocation().pathname);
  // The page's own address with the fragment: following it changes no document, it starts the app.
  if (!usable && route?.startsOnFirstUse) return <LogInLink href={`${localizePath(route.path, locale)}${logInHash}`} />;
  if (!usable) {
    return (
      <span className="button button--placeholder" aria-hidden="true">
        {t('nav.logIn')}
      </span>
    );
  }
  return (
    <button
      type="button"
      className="button button--primary"
      onClick={() => openLogin('login', true)}
      onPointerEnter={preloadLoginDialog}
      onFocus={preloadLoginDialog}
    >
      {t('nav.logIn')}
    </button>
  );
}

/**
 * `staticHeader`: the layout stays the server's HTML (the recipient's pages hydrate the page alone), so Log in is a
 * plain link to the home page, which opens the dialog there.
 */
export function SiteLayout({ children, staticHeader = false }: { children: ReactNode; staticHeader?: boolean }) {
  const locale = useLocaleFromUrl();
  const { t } = useTranslation(hostNamespace);
  const { t: tc } = useTranslation('common');
  // The prerendered layout is the signed-out one; the session shows once hydrated.
  const hasUser = useSignedIn();
  const hydrated = useHydrated();
  const signedIn = hydrated && hasUser;
  const { pathname } = useLocation();
  // The operator's console: its remote draws its own header (no subscriber's links, no Log in), in this language.
  if (findAppRoute(pathname)?.ownLayout) return <>{children}</>;
  return (
    <div className="site">
      <a className="skip-link" href="#main">
        {t('nav.skipToContent')}
      </a>
      <header className="site-header">
        <Link className="site-header__brand" to={localizePath(routePaths.home, locale)}>
          {tc('brand')}
        </Link>
        <nav
          className={signedIn ? 'site-header__nav site-header__nav--signed-in' : 'site-header__nav'}
          aria-label={t('nav.main')}
        >
          <Link className="site-header__home" to={localizePath(routePaths.home, locale)}>
            {t('nav.home')}
          </Link>
          {signedIn && <Link to={localizePath(routePaths.dashboard, locale)}>{t('nav.dashboard')}</Link>}
          {/* Account settings (email, password, sessions, export, deletion) live in this dialog. */}
          {signedIn && <Link to={localizePath(routePaths.mySubscription, locale)}>{t('nav.mySubscription')}</Link>}
          {signedIn && (
            <button type="button" className="button" onClick={signOut}>
              {t('nav.signOut')}
            </button>
          )}
          {!signedIn &&
            (staticHeader ? (
              <LogInLink href={`${localizePath(routePaths.home, locale)}${logInHash}`} />
            ) : (
              <LogInButton usable={hydrated} locale={locale} />
            ))}
        </nav>
        {/* Outside the nav: on a phone it stays beside the brand while a signed-in user's links take a row. */}
        <LanguageSwitch locale={locale} />
      </header>
      <main id="main" className="site-main">
        {children}
      </main>
      <footer className="site-footer">
        <p>{t('footer.tagline')}</p>
        {/* For anyone who received a request: every request to their number or email, without an account. */}
        <p>
          <a href={localizePath(routePaths.myRequests, locale)}>{t('footer.myRequests')}</a>
        </p>
        <p>{t('footer.rights', { year: new Date().getFullYear() })}</p>
      </footer>
    </div>
  );
}
