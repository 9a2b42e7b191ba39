import { useTranslation } from 'react-i18next';
import Button from 'antd/es/button';
import { billingNamespace } from '../../i18n/billing-namespace';
import { downloadMyData } from './account-api';
import { OutcomeText, Part, useAction } from './account-form-parts';

export function ExportData() {
  const { t } = useTranslation(billingNamespace);
  const { busy, outcome, run } = useAction();
  return (
    <Part id="account-export" title={t('account.exportTitle')}>
      <p>{t('account.exportText')}</p>
      <Button
        loading={busy}
        onClick={() =>
          void run(async () => {
            await downloadMyData();
            return null;
          })
        }
      >
        {t('account.export')}
      </Button>
      <OutcomeText outcome={outcome} />
    </Part>
  );
}
