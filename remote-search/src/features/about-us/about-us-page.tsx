import { useTranslation } from 'react-i18next';
import { searchNamespace } from '../../i18n/search-namespace';
import { ContentPage } from '../content-page/content-page';
import { Sections } from '../content-page/sections';

export default function AboutUsPage() {
  const { t } = useTranslation(searchNamespace);
  return (
    <ContentPage
      head={{ title: t('meta.aboutUs.title'), description: t('meta.aboutUs.description') }}
      title={t('aboutUs.title')}
      lead={t('aboutUs.lead')}
    >
      <Sections sections={t('aboutUs.sections', { returnObjects: true })} />
    </ContentPage>
  );
}
