import { useTranslation } from 'react-i18next';
import { searchNamespace } from '../../i18n/search-namespace';
import { ContentPage } from '../content-page/content-page';
import { Sections } from '../content-page/sections';

/** Text only for now: the cancel-and-refund form comes with the billing issue; meanwhile, the contact form. */
export default function UnsubscribeAndRefundPage() {
  const { t } = useTranslation(searchNamespace);
  return (
    <ContentPage
      head={{ title: t('meta.unsubscribeAndRefund.title'), description: t('meta.unsubscribeAndRefund.description') }}
      title={t('unsubscribeAndRefund.title')}
      lead={t('unsubscribeAndRefund.lead')}
    >
      <Sections sections={t('unsubscribeAndRefund.sections', { returnObjects: true })} />
    </ContentPage>
  );
}
