import { useTranslation } from 'react-i18next';
import { NavLink, useLocation } from '@kabari/shared/routing/router';
import { localeFromPath, localizePath } from '@kabari/shared/i18n/locale';
import { routePaths } from '@kabari/shared/routing/route-paths';
import { searchNamespace } from '../i18n/search-namespace';
import './public-pages-nav.css';

/** The public pages, in the order a visitor is most likely to look for them. */
export const publicPageLinks = [
  'trackingPhoneNumber',
  'faqs',
  'aboutUs',
  'contactUs',
  'privacyPolicy',
  'termsOfUse',
  'cookiesPolicy',
  'unsubscribeAndRefund',
  'intellectualProperty',
] as const;

/** Links to every public page, at the foot of each (the current one marked), so none is a dead end. */
export function PublicPagesNav() {
  const { t } = useTranslation(searchNamespace);
  const locale = localeFromPath(useLocation().pathname);
  return (
    <nav className="public-pages-nav" aria-labelledby="public-pages-nav-title">
      <h2 id="public-pages-nav-title">{t('publicNav.label')}</h2>
      <ul>
        {publicPageLinks.map((name) => (
          <li key={name}>
            <NavLink to={localizePath(routePaths[name], locale)} end>
              {t(`publicNav.links.${name}`)}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
