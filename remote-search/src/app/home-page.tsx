import { useTranslation } from 'react-i18next';
import { Link, useLocation } from '@kabari/shared/routing/router';
import { localeFromPath, localizePath } from '@kabari/shared/i18n/locale';
import { routePaths } from '@kabari/shared/routing/route-paths';
import { usePageHead } from '@kabari/shared/seo/use-page-head';
import { searchNamespace } from '../i18n/search-namespace';
import { Prose } from '../components/prose';
import { PublicPagesNav } from '../components/public-pages-nav';
import { FaqList, type FaqKey } from '../features/faqs/faq-list';
import { NumberSearch } from '../features/number-search/number-search';
import { SignUpMount } from '../features/sign-up/sign-up-mount';
import './home-page.css';

const stepKeys = ['ask', 'consent', 'see'] as const;
/** The questions a first visitor most needs answered; /faqs has them all. */
const homeFaqKeys: readonly FaqKey[] = ['withoutConsent', 'whatTheySee', 'accuracy', 'stopSharing', 'price'];

export default function HomePage() {
  const { t } = useTranslation(searchNamespace);
  const locale = localeFromPath(useLocation().pathname);
  usePageHead({ title: t('meta.home.title'), description: t('meta.home.description') });
  return (
    <article className="home-page" data-remote="search">
      <section className="home-page__hero">
        <h1>{t('home.title')}</h1>
        <p className="home-page__lead">{t('home.lead')}</p>
        <NumberSearch />
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
        <div className="home-page__more">
          <Prose text={t('home.stepsMore')} />
        </div>
      </section>
      <p className="home-page__note">{t('home.adultsOnly')}</p>
      <section className="home-page__faq" aria-labelledby="home-faq">
        <h2 id="home-faq">{t('home.faqTitle')}</h2>
        <FaqList only={homeFaqKeys} />
        <p>
          <Link to={localizePath(routePaths.faqs, locale)}>{t('home.faqMore')}</Link>
        </p>
      </section>
      <PublicPagesNav />
      <SignUpMount />
    </article>
  );
}
