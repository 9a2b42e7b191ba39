import { useTranslation } from 'react-i18next';
import { searchNamespace } from '../../i18n/search-namespace';
import { ContentPage } from '../content-page/content-page';
import { Sections } from '../content-page/sections';

/** Ownership, and the attributions the licences of our data ask for (DB-IP, OpenStreetMap, GeoNames…). */
export default function IntellectualPropertyPage() {
  const { t } = useTranslation(searchNamespace);
  return (
    <ContentPage
      head={{ title: t('meta.intellectualProperty.title'), description: t('meta.intellectualProperty.description') }}
      title={t('intellectualProperty.title')}
      lead={t('intellectualProperty.lead')}
    >
      <Sections sections={t('intellectualProperty.sections', { returnObjects: true })} />
    </ContentPage>
  );
}
