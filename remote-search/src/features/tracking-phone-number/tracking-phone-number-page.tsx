import { useTranslation } from 'react-i18next';
import { searchNamespace } from '../../i18n/search-namespace';
import { searchTrackingNamespace } from '../../i18n/search-tracking-namespace';
import { ContentPage } from '../../components/content-page';
import { Sections } from '../../components/sections';

/** How a consent request works, step by step: what the recipient sees, what is and is not collected. */
export default function TrackingPhoneNumberPage() {
  const { t } = useTranslation(searchNamespace);
  const { t: tt } = useTranslation(searchTrackingNamespace);
  return (
    <ContentPage
      head={{ title: t('meta.trackingPhoneNumber.title'), description: t('meta.trackingPhoneNumber.description') }}
      title={tt('title')}
      lead={tt('lead')}
    >
      <Sections sections={tt('sections', { returnObjects: true })} />
    </ContentPage>
  );
}
