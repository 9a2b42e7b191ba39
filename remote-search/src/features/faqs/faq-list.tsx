import { useTranslation } from 'react-i18next';
import { searchNamespace } from '../../i18n/search-namespace';
import { Prose } from '../../components/prose';
import './faq-list.css';

export type FaqKey = keyof ReturnType<typeof useFaqItems>;

function useFaqItems() {
  const { t } = useTranslation(searchNamespace);
  return t('faqs.items', { returnObjects: true });
}

/**
 * Questions as <details>: every answer is in the HTML (readable without scripts, found by search
 * engines), opened by keyboard or touch without any JavaScript.
 */
export function FaqList({ only }: { only?: readonly FaqKey[] }) {
  const items = useFaqItems();
  const keys = only ?? (Object.keys(items) as FaqKey[]);
  return (
    <div className="faq-list">
      {keys.map((key) => (
        <details key={key} id={key} className="faq-list__item">
          {/* No heading inside: a summary is a button to assistive technology, and its content is its label. */}
          <summary>
            <span className="faq-list__question">{items[key].question}</span>
          </summary>
          <div className="faq-list__answer">
            <Prose text={items[key].answer} />
          </div>
        </details>
      ))}
    </div>
  );
}
