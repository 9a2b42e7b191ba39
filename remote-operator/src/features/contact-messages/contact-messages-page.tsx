import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Button from 'antd/es/button';
import Empty from 'antd/es/empty';
import Radio from 'antd/es/radio';
import Tag from 'antd/es/tag';
import { formatTime } from '@kabari/shared/i18n/format-time';
import { DataState } from '../../components/data-state';
import { NoteDialog } from '../../components/note-dialog';
import { operatorNamespace } from '../../i18n/operator-namespace';
import { useConsoleLocale } from '../../lib/console-paths';
import { useConsoleAction } from '../../lib/use-console-action';
import { useConsoleData } from '../../lib/use-console-data';
import { useConsoleTitle } from '../../lib/use-console-title';
import {
  fetchContactMessages,
  markAnswered,
  markRead,
  type ContactFilter,
  type ContactMessage,
} from './contact-messages-api';

const filters = ['open', 'answered'] as const satisfies readonly ContactFilter[];

/** Where a message stands: answered, read, or not yet read. */
function statusOf(message: ContactMessage): 'answered' | 'read' | 'unread' {
  if (message.answeredAt) return 'answered';
  return message.readAt ? 'read' : 'unread';
}

/** /operator/contact-messages: what visitors wrote through the contact form, marked read, then answered. */
export function ContactMessagesPage() {
  const { t } = useTranslation(operatorNamespace);
  useConsoleTitle(t('contactMessages.title'));
  const { locale } = useConsoleLocale();
  const [filter, setFilter] = useState<ContactFilter>('open');
  const data = useConsoleData(() => fetchContactMessages(filter), filter);
  const { busy, run } = useConsoleAction();

  return (
    <section className="console-panel" aria-labelledby="contact-title">
      <h1 id="contact-title">{t('contactMessages.title')}</h1>
      <Radio.Group
        aria-label={t('contactMessages.filter')}
        optionType="button"
        value={filter}
        onChange={(event) => setFilter(event.target.value as ContactFilter)}
        options={filters.map((value) => ({ value, label: t(`contactMessages.${value}`) }))}
        style={{ marginBottom: 16 }}
      />
      <DataState data={data}>
        {(messages) =>
          messages.length ? (
            <ul className="console-card-list">
              {messages.map((message) => (
                <li key={message.id}>
                  <strong>{t('contactMessages.from', { name: message.name, email: message.email })}</strong>{' '}
                  <Tag>{t(`contactMessages.${statusOf(message)}`)}</Tag>
                  <div className="console-muted">
                    {t('contactMessages.received', { date: formatTime(message.createdAt, locale) })}
                  </div>
                  <div className="console-muted">
                    {t('contactMessages.topic', { topic: t(`contactMessages.topics.${message.topic}`) })}
                  </div>
                  <p className="console-pre">{message.message}</p>
                  <div className="console-actions">
                    {statusOf(message) === 'unread' && (
                      <Button
                        disabled={busy}
                        onClick={() =>
                          void run(() => markRead(message.id), t('contactMessages.read')).then(
                            (ok) => ok && data.reload(),
                          )
                        }
                      >
                        {t('contactMessages.markRead')}
                      </Button>
                    )}
                    {!message.answeredAt && (
                      <NoteDialog
                        label={t('contactMessages.markAnswered')}
                        title={t('contactMessages.answeredTitle')}
                        text={t('contactMessages.answeredText')}
                        noteRequired={false}
                        disabled={busy}
                        onConfirm={async ({ note }) => {
                          const ok = await run(() => markAnswered(message.id, note), t('contactMessages.answered'));
                          if (ok) data.reload();
                          return ok;
                        }}
                      />
                    )}
                  </div>
                </li>
              ))}
            </ul>
          ) : (
            <Empty description={t('contactMessages.empty')} />
          )
        }
      </DataState>
    </section>
  );
}
