import { useTranslation } from 'react-i18next';
import { searchNamespace } from '../../i18n/search-namespace';
import { searchTermsNamespace } from '../../i18n/search-terms-namespace';
import { ContentPage } from '../../components/content-page';
import { Sections } from '../../components/sections';

export default function TermsOfUsePage() {
  const { t } = useTranslation(searchNamespace);
  const { t: tt } = useTranslation(searchTermsNamespace);
  return (
    <ContentPage
      head={{ title: t('meta.termsOfUse.title'), description: t('meta.termsOfUse.description') }}
      title={tt('title')}
      lead={tt('lead')}
      updated={tt('updated')}
    >
      <Sections sections={tt('sections', { returnObjects: true })} tableOfContents />
    </ContentPage>
  );
}
