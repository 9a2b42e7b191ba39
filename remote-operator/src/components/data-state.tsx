import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Spin from 'antd/es/spin';
import { operatorNamespace } from '../i18n/operator-namespace';
import type { ConsoleData } from '../lib/use-console-data';

/** A console read's page body: a spinner while it loads, the failure with a retry, or what it loaded. */
export function DataState<T>({
  data,
  children,
}: {
  data: ConsoleData<T> & { reload: () => void };
  children: (value: T) => ReactNode;
}) {
  const { t } = useTranslation(operatorNamespace);
  if (data.phase === 'loading') {
    return (
      <div className="console-loading" role="status" aria-live="polite">
        <Spin size="small" /> {t('console.loading')}
      </div>
    );
  }
  if (data.phase === 'failed') {
    const message =
      data.failure === 'missing'
        ? t('console.notFound')
        : data.failure === 'throttled' || data.failure === 'refused'
          ? data.message
          : t('console.loadFailed');
    return (
      <Alert
        type="error"
        showIcon
        role="alert"
        title={message}
        action={
          data.failure === 'missing' ? undefined : (
            <Button size="small" onClick={data.reload}>
              {t('console.retry')}
            </Button>
          )
        }
      />
    );
  }
  return <>{children(data.data)}</>;
}
