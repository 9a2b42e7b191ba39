import { useTranslation } from 'react-i18next';
import { searchNamespace } from '../../i18n/search-namespace';
import './home-page.css';

const stepKeys = ['ask', 'consent', 'see'] as const;

export default function HomePage() {
  const { t } = useTranslation(searchNamespace);
  return (
    <article className="home-page" data-remote="search">
      <section className="home-page__hero">
        <h1>{t('home.title')}</h1>
        <p className="home-page__lead">{t('home.lead')}</p>
      </section>
      <section aria-labelledby="home-steps">
        <h2 id="home-steps">{t('home.stepsTitle')}</h2>
        <ol className="home-page__steps">
          {stepKeys.map((key) => (
            <li key={key}>
              <h3>{t(`home.steps.${key}.title`)}</h3>
              <p>{t(`home.steps.${key}.text`)}</p>
            </li>
          ))}
        </ol>
      </section>
      <p className="home-page__note">{t('home.adultsOnly')}</p>
    </article>
  );
}
