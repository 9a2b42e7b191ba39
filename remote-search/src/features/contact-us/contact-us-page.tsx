import { useTranslation } from 'react-i18next';
import { searchNamespace } from '../../i18n/search-namespace';
import { ContentPage } from '../content-page/content-page';
import { Prose } from '../content-page/prose';
import { ContactForm } from './contact-form';

export default function ContactUsPage() {
  const { t } = useTranslation(searchNamespace);
  return (
    <ContentPage
      head={{ title: t('meta.contactUs.title'), description: t('meta.contactUs.description') }}
      title={t('contactUs.title')}
      lead={t('contactUs.lead')}
    >
      <ContactForm />
      <Prose text={t('contactUs.privacyNote')} />
    </ContentPage>
  );
}
