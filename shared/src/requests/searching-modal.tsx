import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Modal from 'antd/es/modal';
import Progress from 'antd/es/progress';
import Button from 'antd/es/button';
import Alert from 'antd/es/alert';
import { AntdScope } from '@kabari/shared/ui/antd-scope';
import type { Locale } from '../i18n/locale';
import type { NumberLookup } from '@kabari/shared/requests/location-request';
import { lookUpNumber } from './number-lookup';
import { requestsLookupNamespace } from './requests-lookup-namespace';
import './searching-modal.css';

export interface SearchingModalProps {
  open: boolean;
  /** The number, already checked by the form (the first step). Mount the modal anew for another number. */
  e164: string;
  locale: Locale;
  onClose: () => void;
  /** The next step: the create-account step for a visitor, the choose-message step for a subscriber. */
  onContinue: (lookup: NumberLookup) => void;
  continueLabel?: string;
  /** The next step sends an SMS: a number Kabari does not send SMS to cannot continue. */
  requireSms?: boolean;
}

type LookUpState = { phase: 'looking' } | { phase: 'done'; lookup: NumberLookup } | { phase: 'failed' };

const knownLineTypes = [
  'mobile',
  'fixed_line',
  'fixed_line_or_mobile',
  'voip',
  'toll_free',
  'premium_rate',
  'shared_cost',
  'personal_number',
  'pager',
  'uan',
  'voicemail',
] as const;
type KnownLineType = (typeof knownLineTypes)[number];

function lineTypeKey(lineType: string | null): KnownLineType | null {
  const key = lineType?.toLowerCase().replace(/[\s-]+/g, '_');
  return (knownLineTypes as readonly string[]).includes(key ?? '') ? (key as KnownLineType) : null;
}

/**
 * The searching modal: the real steps (the number's format checked, the public numbering
 * plan looked up, done) and only what that data says. No tower, no invented place: an unknown fact says
 * Unknown. Loaded lazily: antd comes with it, not with the page.
 */
export default function SearchingModal({
  open,
  e164,
  locale,
  onClose,
  onContinue,
  continueLabel,
  requireSms = false,
}: SearchingModalProps) {
  const { t } = useTranslation(requestsLookupNamespace);
  const [state, setState] = useState<LookUpState>({ phase: 'looking' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!open) return;
    let current = true;
    lookUpNumber(e164, locale)
      .then((lookup) => current && setState({ phase: 'done', lookup }))
      .catch(() => current && setState({ phase: 'failed' }));
    return () => {
      current = false;
    };
  }, [open, e164, locale, attempt]);

  const retry = useCallback(() => {
    setState({ phase: 'looking' });
    setAttempt((n) => n + 1);
  }, []);
  const unknown = t('facts.unknown');
  const done = state.phase === 'done';
  // Three real steps: the format check (done before the modal opened), the look-up, and done.
  const percent = done ? 100 : state.phase === 'failed' ? 33 : 50;

  function facts(lookup: NumberLookup) {
    const typeKey = lineTypeKey(lookup.lineType);
    const rows: Array<[string, string | null]> = [
      [t('facts.number'), lookup.e164],
      [t('facts.country'), lookup.countryName],
      [t('facts.region'), lookup.region],
      [t('facts.carrier'), lookup.carrier],
      [t('facts.timeZone'), lookup.timeZones?.length ? lookup.timeZones.join(', ') : null],
      [t('facts.lineType'), typeKey ? t(`lineTypes.${typeKey}`) : lookup.lineType],
    ];
    return (
      <dl className="searching-modal__facts" data-testid="number-facts">
        {rows.map(([label, value]) => (
          <div key={label} className="searching-modal__fact">
            <dt>{label}</dt>
            <dd className={value ? undefined : 'searching-modal__unknown'}>{value || unknown}</dd>
          </div>
        ))}
      </dl>
    );
  }

  // Said up front, before anyone pays or writes a message: the operator sends SMS only to some countries.
  const smsRefused = done && state.lookup.valid && state.lookup.smsAllowed === false;
  const canContinue = done && state.lookup.valid && !(requireSms && smsRefused);
  return (
    <AntdScope>
      <Modal
        open={open}
        title={t('title')}
        onCancel={onClose}
        destroyOnHidden
        mask={{ closable: false }}
        footer={[
          <Button key="cancel" onClick={onClose}>
            {t('cancel')}
          </Button>,
          <Button
            key="continue"
            type="primary"
            disabled={!canContinue}
            onClick={() => done && onContinue(state.lookup)}
          >
            {continueLabel ?? t('continue')}
          </Button>,
        ]}
      >
        <Progress
          percent={percent}
          status={state.phase === 'failed' ? 'exception' : done ? 'success' : 'active'}
          showInfo={false}
          aria-label={t('progressLabel')}
        />
        <ol className="searching-modal__steps" aria-live="polite">
          <li data-state="done">{t('steps.validate')}</li>
          <li data-state={state.phase === 'looking' ? 'active' : state.phase}>
            {done ? t('steps.lookUpDone') : t('steps.lookUp')}
          </li>
          {done && <li data-state="done">{t('steps.done')}</li>}
        </ol>
        {state.phase === 'failed' && (
          <Alert
            type="error"
            showIcon
            title={t('failed')}
            action={
              <Button size="small" onClick={retry}>
                {t('retry')}
              </Button>
            }
          />
        )}
        {done && (
          <>
            {!state.lookup.valid && <Alert type="warning" showIcon title={t('notValid')} />}
            {smsRefused && (
              <Alert
                type="warning"
                showIcon
                role="alert"
                data-testid="sms-refused"
                title={state.lookup.smsRefusal ?? t('smsNotSent')}
              />
            )}
            {facts(state.lookup)}
            <p className="searching-modal__honesty">{t('honesty')}</p>
          </>
        )}
      </Modal>
    </AntdScope>
  );
}
