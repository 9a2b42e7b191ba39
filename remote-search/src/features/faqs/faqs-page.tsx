import { useTranslation } from 'react-i18next';
import { searchNamespace } from '../../i18n/search-namespace';
import { ContentPage } from '../../components/content-page';
import { Prose } from '../../components/prose';
import { FaqList } from './faq-list';

export default function FaqsPage() {
  const { t } = useTranslation(searchNamespace);
  return (
    <ContentPage
      head={{ title: t('meta.faqs.title'), description: t('meta.faqs.description') }}
      title={t('faqs.title')}
    >
      <div className="content-page__lead">
        <Prose text={t('faqs.lead')} />
      </div>
      <FaqList />
    </ContentPage>
  );
}
