import { useTranslation } from 'react-i18next';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import { billingNamespace } from '../../i18n/billing-namespace';
import { fetchNoticeSettings, sendTestPush, setNotice, type NoticeChannel, type RequesterNotice } from './account-api';
import { OutcomeText, Part, useActionLoadedOnce } from './account-form-parts';
import { pushState, PushRefused, turnPushOff, turnPushOn } from './push-subscription';

/**
 * What tells the subscriber that a recipient answered: emails, and notifications in the browsers where they turned
 * them on. Each notice on or off per channel, saved as it is switched.
 */
export function NoticeSettingsPart() {
  const { t } = useTranslation(billingNamespace);
  const { busy, outcome, run, data: settings, setData: setSettings } = useActionLoadedOnce(fetchNoticeSettings);
  const change = (channel: NoticeChannel, notice: RequesterNotice, on: boolean) =>
    run(async () => {
      setSettings(await setNotice(channel, notice, on));
      return t('account.noticesSaved');
    });
  const switches = (channel: NoticeChannel) =>
    settings && (
      <ul className="account-section__notices" aria-labelledby={`account-notices-${channel}`}>
        {/* The server's list, in its order: a notice it adds needs only its text here. */}
        {(Object.keys(settings[channel]) as RequesterNotice[]).map((notice) => (
          <li key={notice}>
            <Checkbox
              checked={settings[channel][notice]}
              disabled={busy}
              onChange={(event) => void change(channel, notice, event.target.checked)}
            >
              {t(`account.notices.${notice}`)}
            </Checkbox>
          </li>
        ))}
      </ul>
    );
  return (
    <Part id="account-notices" title={t('account.noticesTitle')}>
      <p>{t('account.noticesText')}</p>
      <h4 id="account-notices-email">{t('account.noticesByEmail')}</h4>
      {switches('email')}
      <h4 id="account-notices-push">{t('account.noticesByPush')}</h4>
      <BrowserNotifications />
      {switches('push')}
      <OutcomeText outcome={outcome} />
    </Part>
  );
}

/** Notifications in this browser: on, off, blocked or impossible here; a test notification once they are on. */
function BrowserNotifications() {
  const { t } = useTranslation(billingNamespace);
  const { busy, outcome, run, data: state, setData: setState } = useActionLoadedOnce(pushState);
  const turnOn = () =>
    run(async () => {
      try {
        await turnPushOn();
      } catch (error) {
        if (!(error instanceof PushRefused)) throw error;
        setState(await pushState());
        throw new Error(t(`account.push.refused.${error.reason}`), { cause: error });
      }
      setState('on');
      return t('account.push.turnedOn');
    });
  const turnOff = () =>
    run(async () => {
      await turnPushOff();
      setState('off');
      return t('account.push.turnedOff');
    });
  const test = () =>
    run(async () => {
      const { devices } = await sendTestPush();
      return t('account.push.testSent', { count: devices });
    });
  return (
    <div className="account-section__push">
      {state && <p>{t(`account.push.state.${state}`)}</p>}
      {state === 'off' && (
        <Button onClick={() => void turnOn()} loading={busy}>
          {t('account.push.turnOn')}
        </Button>
      )}
      {state === 'on' && (
        <div className="account-section__push-actions">
          <Button onClick={() => void test()} disabled={busy}>
            {t('account.push.test')}
          </Button>
          <Button onClick={() => void turnOff()} disabled={busy}>
            {t('account.push.turnOff')}
          </Button>
        </div>
      )}
      <p className="account-section__push-note">{t('account.push.iphone')}</p>
      <OutcomeText outcome={outcome} />
    </div>
  );
}
