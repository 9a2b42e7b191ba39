import { useTranslation } from 'react-i18next';
import { searchNamespace } from '../i18n/search-namespace';
import { Prose } from './prose';

export interface TextSection {
  title: string;
  text: string;
}

/**
 * The sections of a long text, in the order of its i18n file, each a headed <section> with an anchor
 * (#key), and optionally a table of contents linking to them.
 */
export function Sections({
  sections,
  tableOfContents = false,
}: {
  sections: Record<string, TextSection>;
  tableOfContents?: boolean;
}) {
  const { t } = useTranslation(searchNamespace);
  const entries = Object.entries(sections);
  return (
    <>
      {tableOfContents && (
        <nav className="content-page__toc" aria-labelledby="page-toc">
          <h2 id="page-toc">{t('contentPage.onThisPage')}</h2>
          <ol>
            {entries.map(([key, section]) => (
              <li key={key}>
                <a href={`#${key}`}>{section.title}</a>
              </li>
            ))}
          </ol>
        </nav>
      )}
      {entries.map(([key, section]) => (
        <section key={key} id={key} className="content-page__section" aria-labelledby={`${key}-title`}>
          <h2 id={`${key}-title`}>{section.title}</h2>
          <Prose text={section.text} />
        </section>
      ))}
    </>
  );
}
