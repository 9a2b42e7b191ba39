import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '@kabari/rules/money';
import { isApiError } from '@kabari/shared/api/api-error';
import { formatTime } from '@kabari/shared/i18n/format-time';
import type { Locale } from '@kabari/shared/i18n/locale';
import {
  isBankChannel,
  sandboxTakesLocalPayments,
  localGroupOf,
  simulateSandboxPayment,
  type BankChannel,
  type LocalPayment,
} from './local-payment';
import { paymentsNamespace } from './payments-namespace';
import { QrCode } from './qr-code';
import './payment-controls.css';
import './local-payment-view.css';

interface LocalPaymentViewProps {
  payment: LocalPayment;
  registerId: string;
  locale: Locale;
  /** Back to the payment step, to pay another way (the waiting payment then expires unpaid). */
  onChooseAgain?: () => void;
  /** The page can be closed and opened again at the same address (the sign-up's result page). */
  resumable?: boolean;
}

/** Seconds until `expiresAt`, counted down once a second; 0 once it has passed. */
function useSecondsLeft(expiresAt: string): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return Math.max(0, Math.ceil((new Date(expiresAt).getTime() - now) / 1000));
}

/** 14:59, or 23:59:59 for a bank transfer's day. */
function clock(seconds: number): string {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

/** A phone (a touch screen as the main pointer): the e-wallet's app can be opened from the page. */
function isPhone(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(pointer: coarse)').matches;
}

/** 8277 1234 5678 9012: a long number read and typed in fours; copied without the spaces. */
function grouped(number: string): string {
  if (number.length <= 8) return number;
  return number.replace(/(\d{4})(?=\d)/g, '$1 ');
}

function CopyableNumber({ id, label, value }: { id: string; label: string; value: string }) {
  const { t } = useTranslation(paymentsNamespace);
  const [said, setSaid] = useState<string | null>(null);
  const copy = () => {
    const done = navigator.clipboard?.writeText(value);
    if (!done) return setSaid(t('local.wait.copyFailed'));
    done.then(
      () => setSaid(t('local.wait.copied', { what: label })),
      () => setSaid(t('local.wait.copyFailed')),
    );
  };
  return (
    <div className="local-payment__number">
      <span id={`${id}-label`} className="local-payment__number-label">
        {label}
      </span>
      <div className="local-payment__number-row">
        <output aria-labelledby={`${id}-label`} className="local-payment__number-value">
          {grouped(value)}
        </output>
        <button
          type="button"
          className="payment-button"
          onClick={copy}
          aria-label={t('local.wait.copyLabel', { what: label })}
        >
          {t('local.wait.copy')}
        </button>
      </div>
      <p className="local-payment__copied" aria-live="polite">
        {said}
      </p>
    </div>
  );
}

function BankSteps({ payment, channel, amount }: { payment: LocalPayment; channel: BankChannel; amount: string }) {
  const { t } = useTranslation(paymentsNamespace);
  const values = {
    number: payment.vaNumber ?? '',
    billerCode: payment.billerCode ?? '',
    amount,
    merchant: payment.merchantName,
  };
  const bank = t(`local.channel.${channel}`);
  const steps = (prefix: 'app' | 'atm') =>
    ([1, 2, 3, 4] as const).map((step) => (
      <li key={step}>{t(`local.wait.steps.${channel}.${prefix}${step}`, values)}</li>
    ));
  return (
    <div className="local-payment__steps">
      <h3>{t('local.wait.stepsApp', { app: t(`local.wait.steps.${channel}.app`) })}</h3>
      <ol>{steps('app')}</ol>
      <details>
        <summary>{t('local.wait.stepsAtm', { bank })}</summary>
        <ol>{steps('atm')}</ol>
      </details>
      {channel !== 'mandiri_bill' && <p>{t('local.wait.otherBank', { bank, number: values.number })}</p>}
    </div>
  );
}

/**
 * What a visitor paying by QRIS, an e-wallet or a bank transfer sees while Kabari waits for the payment: the code
 * or number, the amount, whom it goes to, and the time left. The caller polls the sign-up (or renewal) and moves on
 * when it is paid; this view only shows how to pay.
 */
export default function LocalPaymentView({
  payment,
  registerId,
  locale,
  onChooseAgain,
  resumable = false,
}: LocalPaymentViewProps) {
  const { t } = useTranslation(paymentsNamespace);
  const secondsLeft = useSecondsLeft(payment.expiresAt);
  const [phone] = useState(isPhone);
  const [sandbox, setSandbox] = useState(false);
  useEffect(() => {
    let current = true;
    sandboxTakesLocalPayments().then(
      (answer) => current && setSandbox(answer),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, []);
  const [simulation, setSimulation] = useState<'idle' | 'sending' | 'sent' | 'failed'>('idle');
  const simulating = useRef(false);
  const group = localGroupOf(payment.channel);
  const name = t(`local.channel.${payment.channel}`);
  const amount = formatMoney(payment.amount, payment.currencyCode, locale);
  const expired = secondsLeft === 0;
  const titleId = `local-payment-${registerId}`;

  const simulate = async () => {
    if (simulating.current) return;
    simulating.current = true;
    setSimulation('sending');
    try {
      await simulateSandboxPayment(registerId);
      setSimulation('sent');
    } catch (error) {
      // Already paid (the notification came first) is not a failure: the poll moves the page on.
      setSimulation(isApiError(error) && error.status === 409 ? 'sent' : 'failed');
    } finally {
      simulating.current = false;
    }
  };

  const deeplink = payment.deeplinkUrl && (phone || !payment.qrString) && (
    <div className="local-payment__app">
      <a className="payment-button payment-button--primary payment-button--large" href={payment.deeplinkUrl}>
        {t('local.wait.openApp', { name })}
      </a>
      <p>{t(phone ? 'local.wait.openAppHint' : 'local.wait.appOnPhone', { name })}</p>
    </div>
  );

  return (
    <section className="local-payment" aria-labelledby={titleId}>
      <h2 id={titleId}>{t(`local.wait.title.${group}`, { name })}</h2>
      <dl className="local-payment__facts">
        <div>
          <dt>{t('local.wait.amount')}</dt>
          <dd className="local-payment__amount">{amount}</dd>
        </div>
        <div>
          <dt>{t('local.wait.merchant')}</dt>
          <dd>{payment.merchantName}</dd>
        </div>
        <div>
          <dt>{t('local.wait.deadline')}</dt>
          <dd>{formatTime(payment.expiresAt, locale)}</dd>
        </div>
        <div>
          <dt>{t('local.wait.timeLeft')}</dt>
          <dd className="local-payment__countdown">
            <span role="timer">{clock(secondsLeft)}</span>
          </dd>
        </div>
      </dl>

      {expired ? (
        <p role="alert" className="payment-notice payment-notice--warning">
          {t('local.wait.expired')}
        </p>
      ) : (
        <>
          {group === 'ewallet' && phone && deeplink}
          {payment.qrString && (
            <figure className="local-payment__qr-box">
              <QrCode
                text={payment.qrString}
                label={t('local.wait.qrLabel', { amount, merchant: payment.merchantName })}
              />
              <figcaption>{t(payment.channel === 'gopay' ? 'local.wait.qrScanGopay' : 'local.wait.qrScan')}</figcaption>
              {phone && group === 'qris' && <p className="local-payment__hint">{t('local.wait.qrOnPhone')}</p>}
            </figure>
          )}
          {group === 'ewallet' && !phone && deeplink}
          {isBankChannel(payment.channel) && payment.vaNumber && (
            <>
              {payment.channel === 'mandiri_bill' && payment.billerCode && (
                <CopyableNumber
                  id={`${titleId}-biller`}
                  label={t('local.wait.billerCode')}
                  value={payment.billerCode}
                />
              )}
              <CopyableNumber
                id={`${titleId}-number`}
                label={t(payment.channel === 'mandiri_bill' ? 'local.wait.billKey' : 'local.wait.vaNumber')}
                value={payment.vaNumber}
              />
              <BankSteps payment={payment} channel={payment.channel} amount={amount} />
            </>
          )}
          <div className="local-payment__waiting" role="status">
            <span className="payment-spinner" aria-hidden="true" /> <span>{t('local.wait.waiting')}</span>
          </div>
          {resumable && <p className="local-payment__hint">{t('local.wait.comeBack')}</p>}
        </>
      )}

      {sandbox && !expired && (
        <div className="local-payment__sandbox">
          <button
            type="button"
            className="payment-button"
            onClick={() => void simulate()}
            aria-disabled={simulation === 'sending' || undefined}
            data-busy={simulation === 'sending' || undefined}
            disabled={simulation === 'sent'}
          >
            {t('local.wait.simulate')}
          </button>
          <p aria-live="polite">
            {simulation === 'sent' && t('local.wait.simulated')}
            {simulation === 'failed' && t('local.wait.simulateFailed')}
          </p>
        </div>
      )}

      {onChooseAgain && (
        <button
          type="button"
          className={`payment-button ${expired ? 'payment-button--primary' : 'payment-button--link'} local-payment__again`}
          onClick={onChooseAgain}
        >
          {t('local.wait.chooseAgain')}
        </button>
      )}
    </section>
  );
}
