import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Button from 'antd/es/button';
import { operatorNamespace } from '../../i18n/operator-namespace';

/** The recovery codes, shown once: to copy or download before going on. */
export function RecoveryCodes({
  codes,
  email,
  onContinue,
}: {
  codes: string[];
  email: string;
  onContinue: () => void;
}) {
  const { t } = useTranslation(operatorNamespace);
  const [copied, setCopied] = useState(false);
  const text = `${codes.join('\n')}\n`;

  function download() {
    const url = URL.createObjectURL(new Blob([`Kabari operator ${email}\n\n${text}`], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'kabari-operator-recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  }

  return (
    <section className="console-panel console-narrow" aria-labelledby="recovery-title">
      <h1 id="recovery-title" tabIndex={-1}>
        {t('enrol.recoveryTitle')}
      </h1>
      <p>{t('enrol.recoveryIntro')}</p>
      <ul className="console-codes" aria-label={t('enrol.recoveryListLabel')}>
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="console-actions" style={{ margin: '16px 0' }}>
        <Button
          onClick={() =>
            void navigator.clipboard?.writeText(text).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? t('enrol.copied') : t('enrol.copy')}
        </Button>
        <Button onClick={download}>{t('enrol.download')}</Button>
      </div>
      <span role="status" className="console-muted">
        {copied ? t('enrol.copied') : ''}
      </span>
      <Button type="primary" block onClick={onContinue} style={{ marginTop: 8 }}>
        {t('enrol.continue')}
      </Button>
    </section>
  );
}
