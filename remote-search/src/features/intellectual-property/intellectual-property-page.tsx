import { useTranslation } from 'react-i18next';
import { searchNamespace } from '../../i18n/search-namespace';
import { searchIntellectualPropertyNamespace } from '../../i18n/search-intellectual-property-namespace';
import { ContentPage } from '../../components/content-page';
import { Sections } from '../../components/sections';

/** Ownership, and the attributions the licences of our data ask for (DB-IP, OpenStreetMap, GeoNames…). */
export default function IntellectualPropertyPage() {
  const { t } = useTranslation(searchNamespace);
  const { t: tp } = useTranslation(searchIntellectualPropertyNamespace);
  return (
    <ContentPage
      head={{ title: t('meta.intellectualProperty.title'), description: t('meta.intellectualProperty.description') }}
      title={tp('title')}
      lead={tp('lead')}
    >
      <Sections sections={tp('sections', { returnObjects: true })} />
    </ContentPage>
  );
}
