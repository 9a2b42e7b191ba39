import { useTranslation } from 'react-i18next';
import { Link, useLocation } from '@kabari/shared/routing/router';
import { localeFromPath, localizePath } from '@kabari/shared/i18n/locale';
import { usePageHead } from '@kabari/shared/seo/use-page-head';
import { searchNamespace } from '../../i18n/search-namespace';
import { PublicPagesNav } from '../../components/public-pages-nav';
import './status-page.css';

/** /200 and /404: a status code, what it means, and the way on. Kept out of search results (noindex). */
export function StatusPage({ status }: { status: 'ok' | 'notFound' }) {
  const { t } = useTranslation(searchNamespace);
  const locale = localeFromPath(useLocation().pathname);
  usePageHead({ title: t(`meta.${status}.title`), description: t(`meta.${status}.description`), indexable: false });
  return (
    <article className="status-page" data-remote="search" aria-labelledby="status-title">
      <p className="status-page__code">{t(`statusPages.${status}.code`)}</p>
      <h1 id="status-title">{t(`statusPages.${status}.title`)}</h1>
      <p>{t(`statusPages.${status}.text`)}</p>
      <p>
        <Link to={localizePath('/', locale)}>{t(`statusPages.${status}.home`)}</Link>
      </p>
      <PublicPagesNav />
    </article>
  );
}
