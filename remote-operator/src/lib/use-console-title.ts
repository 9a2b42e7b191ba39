import { useTranslation } from 'react-i18next';
import { usePageHead } from '@kabari/shared/seo/use-page-head';
import { operatorNamespace } from '../i18n/operator-namespace';

/** The document's title for a console page; never indexed (the server also says so in a header). */
export function useConsoleTitle(title: string): void {
  const { t } = useTranslation(operatorNamespace);
  usePageHead({ title: `${title} · ${t('console.brand')}`, description: t('console.brand'), indexable: false });
}
