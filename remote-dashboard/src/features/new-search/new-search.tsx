import { lazy, Suspense, useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Tabs from 'antd/es/tabs';
import Button from 'antd/es/button';
import type { Locale } from '@kabari/shared/i18n/locale';
import type { LocationRequest } from '@kabari/shared/requests/location-request';
import { PhoneInput, usePhoneCountry } from '@kabari/shared/requests/phone-input';
import { describeNumber } from '@kabari/shared/requests/phone-validation';
import { useNumberCheck } from '@kabari/shared/requests/use-number-check';
import { rememberSearchedNumber, searchedNumber } from '@kabari/shared/requests/searched-number';
import { isValidEmail } from '@kabari/shared/validation/email';
import { dashboardRequestsNamespace } from '../../i18n/dashboard-requests-namespace';
import { ChooseMessageModal } from '../message-request/choose-message-modal';
import type { MessageChannel } from '../message-request/message-api';
import { LinkGenerator } from '../link-generator/link-generator';
import { fetchLimit } from '../../lib/send-limit';
import './new-search.css';

const SearchingModal = lazy(() => import('@kabari/shared/requests/searching-modal'));

export type SearchMode = 'number' | 'email' | 'link';

interface NewSearchProps {
  locale: Locale;
  onRequestCreated: (request: LocationRequest) => void;
  onSeeHistory: () => void;
}

type Compose = { channel: MessageChannel; target: string } | null;

function NumberMode({ locale, onCompose }: { locale: Locale; onCompose: (compose: Compose) => void }) {
  const { t } = useTranslation(dashboardRequestsNamespace);
  const { country, pickCountry } = usePhoneCountry(locale, { eager: true });
  const [searching, setSearching] = useState<string | null>(null);
  const { number, setNumber, error, checking, input, find } = useNumberCheck(country, setSearching);
  const [searchedBefore, setSearchedBefore] = useState<string | null>(null);
  // Whether this server sends requests by WhatsApp: the intro says so. Asked without a number (the link check's
  // answer says it); until known, or if it cannot be, the intro says SMS.
  const [whatsApp, setWhatsApp] = useState(false);

  useEffect(() => {
    let cancelled = false;
    fetchLimit({ channel: 'link' })
      .then((limit) => {
        if (!cancelled) setWhatsApp(limit.whatsapp === true);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, []);

  // The number the visitor searched before creating their account, filled in once, then forgotten.
  useEffect(() => {
    const e164 = searchedNumber();
    if (!e164) return;
    let cancelled = false;
    void describeNumber(e164).then((phone) => {
      if (cancelled || !phone) return;
      pickCountry(phone.country);
      setNumber(phone.national);
      setSearchedBefore(phone.international);
      rememberSearchedNumber(null);
    });
    return () => {
      cancelled = true;
    };
  }, [pickCountry, setNumber]);

  return (
    <form className="new-search__form" noValidate onSubmit={(event) => void find(event)}>
      <p className="new-search__intro">{whatsApp ? t('number.introWhatsApp') : t('number.intro')}</p>
      {searchedBefore && (
        <p className="new-search__searched" role="status">
          {t('number.searched', { number: searchedBefore })}
        </p>
      )}
      <PhoneInput
        idPrefix="dashboard-search"
        locale={locale}
        country={country}
        onCountryChange={pickCountry}
        value={number}
        onChange={setNumber}
        error={error}
        inputRef={input}
      />
      <Button type="primary" htmlType="submit" loading={checking} className="new-search__submit">
        {checking ? t('number.checking') : t('number.find')}
      </Button>
      {searching && (
        <Suspense fallback={null}>
          <SearchingModal
            key={searching}
            open
            e164={searching}
            locale={locale}
            continueLabel={t('number.chooseMessage')}
            requireSms
            onClose={() => {
              setSearching(null);
              input.current?.focus();
            }}
            onContinue={(lookup) => {
              setSearching(null);
              onCompose({ channel: 'sms', target: lookup.e164 });
            }}
          />
        </Suspense>
      )}
    </form>
  );
}

function EmailMode({ onCompose }: { onCompose: (compose: Compose) => void }) {
  const { t } = useTranslation(dashboardRequestsNamespace);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<'empty' | 'invalid' | null>(null);
  const input = useRef<HTMLInputElement>(null);

  function next(event: FormEvent) {
    event.preventDefault();
    const value = email.trim();
    const problem = !value ? 'empty' : !isValidEmail(value) ? 'invalid' : null;
    setError(problem);
    if (problem) {
      input.current?.focus();
      return;
    }
    onCompose({ channel: 'email', target: value.toLowerCase() });
  }

  return (
    <form className="new-search__form" noValidate onSubmit={next}>
      <p className="new-search__intro">{t('email.intro')}</p>
      <div className="new-search__field">
        <label htmlFor="dashboard-email">{t('email.label')}</label>
        <input
          id="dashboard-email"
          ref={input}
          type="email"
          inputMode="email"
          autoComplete="off"
          spellCheck={false}
          value={email}
          onChange={(event) => {
            setEmail(event.target.value);
            if (error) setError(null);
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'dashboard-email-error' : undefined}
        />
        {error && (
          <p id="dashboard-email-error" className="new-search__error">
            {t(`email.errors.${error}`)}
          </p>
        )}
      </div>
      <Button type="primary" htmlType="submit" className="new-search__submit">
        {t('email.next')}
      </Button>
    </form>
  );
}

/** The dashboard's new search: by number, by email or by link. */
export function NewSearch({ locale, onRequestCreated, onSeeHistory }: NewSearchProps) {
  const { t } = useTranslation(dashboardRequestsNamespace);
  const [mode, setMode] = useState<SearchMode>('number');
  const [compose, setCompose] = useState<Compose>(null);

  return (
    <section className="new-search" aria-labelledby="new-search-title">
      <h2 id="new-search-title">{t('page.newSearch')}</h2>
      <Tabs
        activeKey={mode}
        onChange={(key) => setMode(key as SearchMode)}
        aria-label={t('page.modesLabel')}
        items={[
          {
            key: 'number',
            label: t('page.modes.number'),
            children: <NumberMode locale={locale} onCompose={setCompose} />,
          },
          { key: 'email', label: t('page.modes.email'), children: <EmailMode onCompose={setCompose} /> },
          {
            key: 'link',
            label: t('page.modes.link'),
            children: <LinkGenerator locale={locale} onCreated={onRequestCreated} onSeeHistory={onSeeHistory} />,
          },
        ]}
      />
      {compose && (
        <ChooseMessageModal
          key={`${compose.channel}:${compose.target}`}
          open
          channel={compose.channel}
          target={compose.target}
          locale={locale}
          onClose={() => setCompose(null)}
          onSent={(request) => {
            setCompose(null);
            onRequestCreated(request);
            onSeeHistory();
          }}
        />
      )}
    </section>
  );
}
