import { useTranslation } from 'react-i18next';
import { searchNamespace } from '../../i18n/search-namespace';
import { searchUnsubscribeAndRefundNamespace } from '../../i18n/search-unsubscribe-and-refund-namespace';
import { ContentPage } from '../../components/content-page';
import { Sections } from '../../components/sections';
import { RefundForm } from './refund-form';

/** How to cancel and get a refund, with the form that does both. */
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
      <RefundForm />
    </ContentPage>
  );
}
