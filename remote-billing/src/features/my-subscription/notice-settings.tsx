import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Checkbox from 'antd/es/checkbox';
import { billingNamespace } from '../../i18n/billing-namespace';
import { fetchNoticeSettings, setEmailNotice, type NoticeSettings, type RequesterNotice } from './account-api';
import { OutcomeText, Part, useAction } from './account-form-parts';

/** The emails that tell the subscriber what a recipient did: each on or off, saved as it is switched. */
export function NoticeSettingsPart() {
  const { t } = useTranslation(billingNamespace);
  const [settings, setSettings] = useState<NoticeSettings | null>(null);
  const { busy, outcome, run } = useAction();
  useEffect(() => {
    void run(async () => {
      setSettings(await fetchNoticeSettings());
      return null;
    });
    // Once, when the section opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const change = (notice: RequesterNotice, on: boolean) =>
    run(async () => {
      setSettings(await setEmailNotice(notice, on));
      return t('account.noticesSaved');
    });
  return (
    <Part id="account-notices" title={t('account.noticesTitle')}>
      <p id="account-notices-text">{t('account.noticesText')}</p>
      {settings && (
        <ul className="account-section__notices" aria-describedby="account-notices-text">
          {/* The server's list, in its order: a notice it adds needs only its text here. */}
          {(Object.keys(settings.email) as RequesterNotice[]).map((notice) => (
            <li key={notice}>
              <Checkbox
                checked={settings.email[notice]}
                disabled={busy}
                onChange={(event) => void change(notice, event.target.checked)}
              >
                {t(`account.notices.${notice}`)}
              </Checkbox>
            </li>
          ))}
        </ul>
      )}
      <OutcomeText outcome={outcome} />
    </Part>
  );
}
