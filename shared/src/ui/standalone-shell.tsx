import { StrictMode, useEffect, type ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Link, Route, Routes, useLocation } from '../routing/router';
import { useTranslation } from 'react-i18next';
import { initI18n } from '../i18n/create-i18n';
import { localeFromPath, localizePath } from '../i18n/locale';
import './standalone-shell.css';

export interface StandaloneRoute {
  path: string;
  Page: ComponentType;
}

function ShellFrame({ appName, routes }: { appName: string; routes: StandaloneRoute[] }) {
  const { pathname } = useLocation();
  const { t, i18n } = useTranslation('common');
  const locale = localeFromPath(pathname);
  useEffect(() => {
    if (i18n.language !== locale) void i18n.changeLanguage(locale);
  }, [i18n, locale]);
  const other = locale === 'en' ? 'id' : 'en';
  return (
    <div className="standalone-shell">
      <header className="standalone-shell__bar">
        <strong>{t('standalone.badge', { app: appName })}</strong>
        <nav aria-label={appName}>
          {routes.map((route) => (
            <Link key={route.path} to={localizePath(route.path, locale)}>
              {route.path}
            </Link>
          ))}
          <Link to={localizePath(pathname, other)} lang={other}>
            {t(`language.${other}`)}
          </Link>
        </nav>
      </header>
      <main>
        <Routes>
          {routes.flatMap(({ path, Page }) => [
            <Route key={path} path={path} element={<Page />} />,
            <Route key={`/id${path}`} path={path === '/' ? '/id' : `/id${path}`} element={<Page />} />,
          ])}
        </Routes>
      </main>
    </div>
  );
}

/** Every remote runs alone for QA with this small shell, against the real API. */
export async function mountStandaloneShell(appName: string, routes: StandaloneRoute[]): Promise<void> {
  await initI18n(localeFromPath(window.location.pathname));
  const container = document.getElementById('root');
  if (!container) throw new Error('No #root element');
  createRoot(container).render(
    <StrictMode>
      <BrowserRouter>
        <ShellFrame appName={appName} routes={routes} />
      </BrowserRouter>
    </StrictMode>,
  );
}
