import { useTranslation } from 'react-i18next';
import { searchNamespace } from '../../i18n/search-namespace';
import { searchPrivacyNamespace } from '../../i18n/search-privacy-namespace';
import { ContentPage } from '../../components/content-page';
import { Sections } from '../../components/sections';

export default function PrivacyPolicyPage() {
  const { t } = useTranslation(searchNamespace);
  const { t: tp } = useTranslation(searchPrivacyNamespace);
  return (
    <ContentPage
      head={{ title: t('meta.privacyPolicy.title'), description: t('meta.privacyPolicy.description') }}
      title={tp('title')}
      lead={tp('lead')}
      updated={tp('updated')}
    >
      <Sections sections={tp('sections', { returnObjects: true })} tableOfContents />
    </ContentPage>
  );
}
