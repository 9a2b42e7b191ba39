import { useTranslation } from 'react-i18next';
import Button from 'antd/es/button';
import { type Locale } from '@kabari/shared/i18n/locale';
import { formatTime } from '@kabari/shared/i18n/format-time';
import { billingNamespace } from '../../i18n/billing-namespace';
import { fetchSessions, revokeSession } from './account-api';
import { OutcomeText, Part, useActionLoadedOnce } from './account-form-parts';

export function SessionsList({ locale }: { locale: Locale }) {
  const { t } = useTranslation(billingNamespace);
  const { busy, outcome, run, data: sessions, setData: setSessions } = useActionLoadedOnce(fetchSessions);
  const end = (id: string) =>
    run(async () => {
      await revokeSession(id);
      setSessions(await fetchSessions());
      return null;
    });
  return (
    <Part id="account-sessions" title={t('account.sessionsTitle')}>
      {sessions && sessions.length === 0 && <p>{t('account.sessionsEmpty')}</p>}
      {sessions && sessions.length > 0 && (
        <ul className="account-section__sessions">
          {sessions.map((session) => (
            <li key={session.id}>
              <div>
                <strong>{session.userAgent || t('account.unknownDevice')}</strong>
                {session.current && <span className="account-section__current">{t('account.thisDevice')}</span>}
                <br />
                <small>
                  {t('account.signedInAt', { date: formatTime(session.createdAt, locale) })}
                  {session.lastSeenAt
                    ? ` · ${t('account.lastSeen', { date: formatTime(session.lastSeenAt, locale) })}`
                    : ''}
                </small>
              </div>
              {!session.current && (
                <Button size="small" onClick={() => void end(session.id)} disabled={busy}>
                  {t('account.endSession')}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <OutcomeText outcome={outcome} />
    </Part>
  );
}
