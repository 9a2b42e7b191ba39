import { useTranslation } from 'react-i18next';
import { searchNamespace } from '../../i18n/search-namespace';
import { searchCookiesNamespace } from '../../i18n/search-cookies-namespace';
import { ContentPage } from '../../components/content-page';
import { Prose } from '../../components/prose';
import { Sections } from '../../components/sections';
import { CookieNotice } from './cookie-notice';

export default function CookiesPolicyPage() {
  const { t } = useTranslation(searchNamespace);
  const { t: tc } = useTranslation(searchCookiesNamespace);
  return (
    <ContentPage
      head={{ title: t('meta.cookiesPolicy.title'), description: t('meta.cookiesPolicy.description') }}
      title={tc('title')}
      lead={tc('lead')}
      updated={tc('updated')}
    >
      <section className="content-page__section" aria-labelledby="cookies-intro">
        <h2 id="cookies-intro">{tc('intro.title')}</h2>
        <Prose text={tc('intro.text')} />
      </section>
      <CookieNotice />
      <Sections sections={tc('sections', { returnObjects: true })} />
    </ContentPage>
  );
}
