import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Button from 'antd/es/button';
import { localizePath, writeLocaleCookie, type Locale } from '@kabari/shared/i18n/locale';
import { Link, NavLink, useLocation, useNavigate } from '@kabari/shared/routing/router';
import { operatorNamespace } from '../i18n/operator-namespace';
import { consolePages, useConsoleLocale } from '../lib/console-paths';
import { useOperatorSession } from '../lib/operator-session';
import { signOut } from '../lib/session-api';

const sections = [
  ['reports', consolePages.reports],
  ['refunds', consolePages.refunds],
  ['contactMessages', consolePages.contactMessages],
  ['failedMessages', consolePages.failedMessages],
  ['smsSpend', consolePages.smsSpend],
  ['auditLog', consolePages.auditLog],
] as const;

/** The same console page in the other language (the choice is remembered as the site's switch remembers it). */
function LanguageSwitch({ locale }: { locale: Locale }) {
  const { t } = useTranslation('common');
  const { pathname, search, hash } = useLocation();
  const navigate = useNavigate();
  const other: Locale = locale === 'en' ? 'id' : 'en';
  const target = `${localizePath(pathname, other)}${search}${hash}`;
  return (
    <a
      className="console-header__language"
      href={target}
      hrefLang={other}
      lang={other}
      aria-label={`${t('language.label')}: ${t(`language.${other}`)}`}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        writeLocaleCookie(other);
        navigate(target, { replace: true, state: null });
      }}
    >
      {t(`language.${other}`)}
    </a>
  );
}

/** The console's own frame: its name, its sections once signed in, the language, and signing out. */
export function ConsoleLayout({ children }: { children: ReactNode }) {
  const { t, i18n } = useTranslation(operatorNamespace);
  const { locale, pathTo } = useConsoleLocale();
  const { state, signedOut } = useOperatorSession();
  // The host keeps the language in step with the address; the standalone QA shell too. This makes it so wherever the
  // console is mounted.
  useEffect(() => {
    if (i18n.language !== locale) void i18n.changeLanguage(locale);
  }, [i18n, locale]);
  const session = state.status === 'signed-in' ? state.session : null;

  async function leave() {
    // Forgotten here at once; the server ends the session and clears its cookie when the call arrives.
    signedOut();
    await signOut().catch(() => undefined);
  }

  return (
    <div className="console" data-remote="operator">
      <a className="console-skip-link" href="#console-main">
        {t('console.skipToContent')}
      </a>
      <header className="console-header">
        <Link className="console-header__brand" to={pathTo(consolePages.reports)}>
          {t('console.brand')}
        </Link>
        <div className="console-header__end">
          {session && (
            <span className="console-header__who">{t('console.signedInAs', { email: session.operator.email })}</span>
          )}
          {session && (
            <Button size="small" onClick={() => void leave()}>
              {t('console.signOut')}
            </Button>
          )}
          <LanguageSwitch locale={locale} />
        </div>
        {session && (
          <nav className="console-nav" aria-label={t('console.nav.label')}>
            {sections.map(([name, page]) => (
              <NavLink key={name} to={pathTo(page)} end={page === consolePages.reports}>
                {t(`console.nav.${name}`)}
              </NavLink>
            ))}
          </nav>
        )}
      </header>
      <main id="console-main" className="console-main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
