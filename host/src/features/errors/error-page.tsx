import { Link, useLocation } from '@kabari/shared/routing/router';
import { useTranslation } from 'react-i18next';
import { localeFromPath, localizePath } from '@kabari/shared/i18n/locale';
import { hostNamespace } from '../../i18n/host-namespace';

interface ErrorPageProps {
  statusCode?: number;
  /** Set when a route's validity check failed: the message then names the path. */
  failedPath?: string;
}

/** The generic error page: status code, status message and description. */
export function ErrorPage({ statusCode = 404, failedPath }: ErrorPageProps) {
  const { t } = useTranslation(hostNamespace);
  const { pathname } = useLocation();
  const notFound = statusCode === 404;
  const title = notFound ? t('errorPage.notFoundTitle') : t('errorPage.serverErrorTitle');
  return (
    <section className="error-page" aria-labelledby="error-title">
      <p className="error-page__code">{statusCode}</p>
      <h1 id="error-title">{title}</h1>
      <p>
        {failedPath
          ? t('errorPage.notFoundPath', { path: failedPath })
          : notFound
            ? t('errorPage.notFoundDescription')
            : t('errorPage.serverErrorDescription')}
      </p>
      <Link to={localizePath('/', localeFromPath(pathname))}>{t('errorPage.backHome')}</Link>
    </section>
  );
}
