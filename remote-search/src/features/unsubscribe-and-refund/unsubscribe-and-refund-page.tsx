import { useTranslation } from 'react-i18next';
import { searchNamespace } from '../../i18n/search-namespace';
import { searchUnsubscribeAndRefundNamespace } from '../../i18n/search-unsubscribe-and-refund-namespace';
import { ContentPage } from '../content-page/content-page';
import { Sections } from '../content-page/sections';

/** Text only for now: the cancel-and-refund form comes with the billing issue; meanwhile, the contact form. */
export default function UnsubscribeAndRefundPage() {
  const { t } = useTranslation(searchNamespace);
  const { t: tp } = useTranslation(searchUnsubscribeAndRefundNamespace);
  return (
    <ContentPage
      head={{ title: t('meta.unsubscribeAndRefund.title'), description: t('meta.unsubscribeAndRefund.description') }}
      title={tp('title')}
      lead={tp('lead')}
    >
      <Sections sections={tp('sections', { returnObjects: true })} />
    </ContentPage>
  );
}
