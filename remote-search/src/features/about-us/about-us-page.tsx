import { useTranslation } from 'react-i18next';
import { searchNamespace } from '../../i18n/search-namespace';
import { searchAboutUsNamespace } from '../../i18n/search-about-us-namespace';
import { ContentPage } from '../../components/content-page';
import { Sections } from '../../components/sections';

export default function AboutUsPage() {
  const { t } = useTranslation(searchNamespace);
  const { t: tp } = useTranslation(searchAboutUsNamespace);
  return (
    <ContentPage
      head={{ title: t('meta.aboutUs.title'), description: t('meta.aboutUs.description') }}
      title={tp('title')}
      lead={tp('lead')}
    >
      <Sections sections={tp('sections', { returnObjects: true })} />
    </ContentPage>
  );
}
