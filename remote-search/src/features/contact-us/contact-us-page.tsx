import { useTranslation } from 'react-i18next';
import { searchNamespace } from '../../i18n/search-namespace';
import { searchContactUsNamespace } from '../../i18n/search-contact-us-namespace';
import { ContentPage } from '../../components/content-page';
import { Prose } from '../../components/prose';
import { ContactForm } from './contact-form';

export default function ContactUsPage() {
  const { t } = useTranslation(searchNamespace);
  const { t: tc } = useTranslation(searchContactUsNamespace);
  return (
    <ContentPage
      head={{ title: t('meta.contactUs.title'), description: t('meta.contactUs.description') }}
      title={tc('title')}
      lead={tc('lead')}
    >
      <ContactForm />
      <Prose text={tc('privacyNote')} />
    </ContentPage>
  );
}
