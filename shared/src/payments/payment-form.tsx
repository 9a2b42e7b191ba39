import { useRef, useState, type FormEvent, type InputHTMLAttributes } from 'react';
import type { ApiData } from '../api/api-types';
import { Trans, useTranslation } from 'react-i18next';
import { isApiError } from '@kabari/shared/api/api-error';
import { localizePath, type Locale } from '@kabari/shared/i18n/locale';
import { routePaths } from '@kabari/shared/routing/route-paths';
import {
  formatCardNumber,
  formatExpiry,
  isCardNumberValid,
  isCvvValid,
  isExpiryValid,
  parseExpiry,
  digitsOnly,
  type CardDetails,
} from './card-validation';
import { formatMoney } from '@kabari/rules/money';
import type { PaymentTerms } from './payment-terms';
import { PaymentTermsSummary, type PaymentKind } from './payment-terms-summary';
import { PaypalButton } from './paypal-button';
import { LocalMethodChoice } from './local-method-choice';
import { localChannelsOf, localGroupOf, type LocalChannel, type LocalGroup } from './local-payment';
import { loadStripeOnce, StripeCardField, type StripeCardFieldHandle } from './stripe-card-field';
import { StripeWalletButton } from './stripe-wallet-button';
import { paymentsNamespace } from './payments-namespace';
import '../ui/text-field.css';
import './payment-controls.css';
import './payment-form.css';

export type PaymentMethod = 'card' | 'wallet' | 'paypal';
/** What the method radio group offers: the local groups (rupiah prices) before the card, wallet and PayPal. */
type MethodChoice = LocalGroup | PaymentMethod;
const localGroups: readonly LocalGroup[] = ['qris', 'ewallet', 'bank'];

/** What a Stripe payment answers: with requiresAction, the clientSecret goes to stripe.handleNextAction. */
export type StripeOutcome = ApiData<'/api/v1/auth/registerAndSign/stripe', 'post'>;

/** How the caller's endpoint (sign-up or renewal) takes each kind of payment; each resolves with the registerId to poll. */
export interface PaymentHandlers {
  sandbox: (payment: { method: PaymentMethod; card?: CardDetails }) => Promise<string>;
  stripe: (payment: { method: 'card' | 'wallet'; paymentMethodId: string }) => Promise<StripeOutcome>;
  /**
   * QRIS, an e-wallet or a bank's virtual account: resolves with the registerId once the gateway has made the code
   * or number, which the page then shows while it waits for the payment. Omitted where they are not offered.
   */
  local?: (channel: LocalChannel) => Promise<string>;
  /** Omitted where PayPal's order flow is not offered. */
  paypal?: {
    create: () => Promise<{ registerId: string; orderId: string }>;
    capture: (registerId: string, orderId: string) => Promise<string>;
  };
}

interface PaymentFormProps {
  /** The form's name: its fields' ids (and so their labels) and its radio groups' names are unique on the page. */
  name: string;
  terms: PaymentTerms;
  /** What today's charge is for: it decides the amount and the words above the button. */
  kind?: PaymentKind;
  /** payAhead: when the paid period starts, said in the terms above the button. */
  nextPeriodStart?: string;
  locale: Locale;
  handlers: PaymentHandlers;
  onPaid: (registerId: string) => void;
  /** A failure the caller deals with itself (e.g. the email already in use): return true. */
  onFailure?: (error: unknown) => boolean;
}

type CardField = 'cardName' | 'cardSurname' | 'cardNumber' | 'cardExpiry' | 'cardCvv';
type Field = CardField | 'consent';
type CardValues = Record<CardField, string>;
type FieldErrors = Partial<Record<Field, string>>;

const emptyCard: CardValues = { cardName: '', cardSurname: '', cardNumber: '', cardExpiry: '', cardCvv: '' };
/** The order the fields are shown in: the first wrong one takes the focus when Pay is refused. */
const fieldOrder: readonly Field[] = ['cardName', 'cardSurname', 'cardNumber', 'cardExpiry', 'cardCvv', 'consent'];

/** Each card field's check and the words said when it fails. */
const cardChecks: Record<CardField, { valid: (value: string) => boolean; error: string }> = {
  cardName: { valid: Boolean, error: 'card.errors.name' },
  cardSurname: { valid: Boolean, error: 'card.errors.surname' },
  cardNumber: { valid: isCardNumberValid, error: 'card.errors.number' },
  cardExpiry: { valid: (value) => isExpiryValid(value), error: 'card.errors.expiry' },
  cardCvv: { valid: isCvvValid, error: 'card.errors.cvv' },
};

/** What each card field keeps of what is typed: the number in fours, the expiry as MM/YY, the CVV's digits. */
const normalizers: Partial<Record<CardField, (value: string) => string>> = {
  cardNumber: formatCardNumber,
  cardExpiry: formatExpiry,
  cardCvv: (value) => digitsOnly(value).slice(0, 4),
};

export const sandboxTestCards = [
  { number: '4242 4242 4242 4242', outcome: 'succeeds' },
  { number: '4000 0000 0000 0002', outcome: 'declined' },
  { number: '4000 0000 0000 9995', outcome: 'insufficient' },
] as const;

function failureText(error: unknown, fallback: string, noAnswer: string): string {
  // No answer at all (the API client's error without a status): for a payment, the general "could not be reached"
  // is not enough; whether it went through is unknown, and the visitor needs to know that paying again is safe.
  if (isApiError(error) && error.status === undefined) return noAnswer;
  if (isApiError(error) && error.message) return error.message;
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}

/**
 * The payment step shared by the sign-up (remote-search) and the renewal (remote-billing): the terms in
 * plain words, the method (card, a wallet, PayPal), the terms consent and the pay button. With the
 * sandbox processor it is our own card form, labelled as such; with Stripe, Stripe Elements (card data
 * never reaches our server); with PayPal, the PayPal button. With no processor configured it says so, and shows
 * no field that could send a card number anywhere.
 */
export function PaymentForm({
  name,
  terms,
  kind = 'signUp',
  nextPeriodStart,
  locale,
  handlers,
  onPaid,
  onFailure,
}: PaymentFormProps) {
  const { t } = useTranslation(paymentsNamespace);
  const [values, setValues] = useState<CardValues>(emptyCard);
  const [consent, setConsent] = useState(false);
  // Read by the providers' own buttons when pressed, which may hold an older render's mayPay.
  const consentGiven = useRef(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const inputs = useRef<Partial<Record<Field, HTMLInputElement | null>>>({});
  const paypalOffered = terms.methods.paypal === 'sandbox' || (terms.methods.paypal === 'paypal' && !!handlers.paypal);
  const localChannels = handlers.local ? localChannelsOf(terms) : [];
  const channelsOf = (group: LocalGroup) => localChannels.filter((channel) => localGroupOf(channel) === group);
  const methods: MethodChoice[] = [
    ...localGroups.filter((group) => channelsOf(group).length > 0),
    ...(['card', 'wallet', 'paypal'] as const).filter((option) =>
      option === 'paypal' ? paypalOffered : terms.methods[option] !== null,
    ),
  ];
  const [chosen, setMethod] = useState<MethodChoice>(methods[0] ?? 'card');
  const choice = methods.includes(chosen) ? chosen : (methods[0] ?? 'card');
  const localGroup = localGroups.find((group) => group === choice) ?? null;
  const method: PaymentMethod = localGroup ? 'card' : (choice as PaymentMethod);
  // Each group keeps its own pick (the first by default), so going back to it finds it as it was left.
  const [picked, setPicked] = useState<Partial<Record<LocalGroup, LocalChannel>>>({});
  const localChannel = localGroup
    ? picked[localGroup] && channelsOf(localGroup).includes(picked[localGroup])
      ? picked[localGroup]
      : channelsOf(localGroup)[0]!
    : null;
  const [paying, setPaying] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const payingNow = useRef(false);
  const stripeCard = useRef<StripeCardFieldHandle>(null);
  // PayPal's order is created before the buyer approves it; the capture names the same sign-up.
  const paypalRegisterId = useRef<string | null>(null);
  const money = (amount: number) => formatMoney(amount, terms.currencyCode, locale);
  const todaysCharge = kind === 'signUp' ? terms.firstDayDebitAmount : terms.amount;
  // The wallet sheet shows today's charge, in Stripe's units as the server counted them.
  const walletAmount = kind === 'signUp' ? terms.stripeAmounts?.firstDayDebitAmount : terms.stripeAmounts?.amount;

  const provider = localGroup
    ? terms.methods.local
    : method === 'paypal'
      ? terms.methods.paypal
      : terms.methods[method];
  const sandboxMethod = provider === 'sandbox';
  const cardChosen = choice === 'card';
  const stripeCardShown = cardChosen && provider === 'stripe' && !!terms.stripePublishableKey;

  if (!terms.paymentsConfigured || methods.length === 0) {
    return (
      <div className="payment-form payment-notice payment-notice--warning payment-form__not-configured">
        <WarningIcon />
        <div>
          <p className="payment-notice__title">{t('notConfigured.title')}</p>
          <p>{t('notConfigured.text')}</p>
        </div>
      </div>
    );
  }

  const fail = (error: unknown) => {
    if (onFailure?.(error)) return;
    setFailure(failureText(error, t('genericFailure'), t(`noAnswer.${kind}`)));
  };

  /** Runs one payment attempt, never two at once. */
  const attempt = async (run: () => Promise<string | null>) => {
    if (payingNow.current) return;
    payingNow.current = true;
    setPaying(true);
    setFailure(null);
    try {
      const registerId = await run();
      if (registerId) onPaid(registerId);
    } catch (error) {
      fail(error);
    } finally {
      payingNow.current = false;
      setPaying(false);
    }
  };

  /** What is wrong with a field's value, in words; null if nothing. */
  const problemOf = (field: Field, card: CardValues): string | null => {
    if (field === 'consent') return consentGiven.current ? null : t('consentRequired');
    const check = cardChecks[field];
    return check.valid(card[field].trim()) ? null : t(check.error as never);
  };
  /** Checks `fields`, shows what is wrong with them (and no more what was), and answers the first wrong one. */
  const check = (fields: readonly Field[], card: CardValues): Field | null => {
    const found: FieldErrors = {};
    for (const field of fields) {
      const problem = problemOf(field, card);
      if (problem) found[field] = problem;
    }
    setErrors((current) => {
      const next = { ...current };
      for (const field of fields) {
        if (found[field]) next[field] = found[field];
        else delete next[field];
      }
      return next;
    });
    return fieldOrder.find((field) => found[field]) ?? null;
  };

  /** For the providers' own buttons: refuse the click and say why while the terms are not accepted. */
  const mayPay = () => {
    if (consentGiven.current) return true;
    check(['consent'], values);
    inputs.current.consent?.focus();
    return false;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (payingNow.current) return;
    const fields: readonly Field[] =
      cardChosen && sandboxMethod ? fieldOrder : stripeCardShown ? ['cardName', 'cardSurname', 'consent'] : ['consent'];
    const firstWrong = check(fields, values);
    if (firstWrong) {
      inputs.current[firstWrong]?.focus();
      return;
    }
    await attempt(async () => {
      if (localChannel) return handlers.local!(localChannel);
      if (cardChosen && sandboxMethod) {
        const expiry = parseExpiry(values.cardExpiry)!;
        return handlers.sandbox({
          method: 'card',
          card: {
            name: values.cardName.trim(),
            surname: values.cardSurname.trim(),
            number: digitsOnly(values.cardNumber),
            expiryMonth: expiry.month,
            expiryYear: expiry.year,
            cvv: values.cardCvv.trim(),
          },
        });
      }
      if (stripeCardShown) {
        const paymentMethodId = await stripeCard.current!.createPaymentMethod(
          `${values.cardName.trim()} ${values.cardSurname.trim()}`,
        );
        const outcome = await handlers.stripe({ method: 'card', paymentMethodId });
        if (outcome.requiresAction && outcome.clientSecret) {
          // 3-D Secure and the like, in Stripe's own dialog; the result screen reads the outcome.
          await stripeCard.current!.stripe()?.handleNextAction({ clientSecret: outcome.clientSecret });
        }
        return outcome.registerId;
      }
      return handlers.sandbox({ method });
    });
  };

  // A field's message shows once Pay is pressed (not while the first digits are typed), then follows each change, so
  // that it goes as soon as the value is right.
  const setCard = (field: CardField, typed: string) => {
    const value = normalizers[field]?.(typed) ?? typed;
    const next = { ...values, [field]: value };
    setValues(next);
    setFailure(null);
    if (errors[field]) check([field], next);
  };
  const setConsentGiven = (checked: boolean) => {
    consentGiven.current = checked;
    setConsent(checked);
    setFailure(null);
    check(['consent'], values);
  };

  const idOf = (field: Field) => `${name}-${field}`;
  /** What ties a control to its message and its hint. */
  const describedBy = (field: Field, hint: boolean) =>
    [errors[field] ? `${idOf(field)}-error` : '', hint ? `${idOf(field)}-hint` : ''].filter(Boolean).join(' ') ||
    undefined;
  const errorOf = (field: Field) =>
    errors[field] ? (
      <p id={`${idOf(field)}-error`} className="payment-form__error">
        {errors[field]}
      </p>
    ) : null;
  const cardField = (
    field: CardField,
    label: string,
    attributes: InputHTMLAttributes<HTMLInputElement>,
    hint?: string,
  ) => (
    <div className="payment-form__field">
      <label htmlFor={idOf(field)} className="payment-form__label">
        {label}
      </label>
      <input
        {...attributes}
        id={idOf(field)}
        name={field}
        type="text"
        className="text-field"
        ref={(element) => {
          inputs.current[field] = element;
        }}
        value={values[field]}
        onChange={(event) => setCard(field, event.target.value)}
        aria-invalid={errors[field] ? true : undefined}
        aria-describedby={describedBy(field, !!hint)}
      />
      {errorOf(field)}
      {hint && (
        <p id={`${idOf(field)}-hint`} className="payment-form__hint">
          {hint}
        </p>
      )}
    </div>
  );

  const methodLabel = (option: MethodChoice) => {
    if (option === 'qris') return t('method.qris');
    if (option === 'ewallet' || option === 'bank') {
      const names = channelsOf(option)
        .map((channel) => t(`local.channel.${channel}`))
        .join(', ');
      return t(`method.${option}`, { names });
    }
    const optionProvider = option === 'paypal' ? terms.methods.paypal : terms.methods[option];
    if (optionProvider === 'sandbox' && option === 'wallet') return t('method.sandboxWallet');
    if (optionProvider === 'sandbox' && option === 'paypal') return t('method.sandboxPaypal');
    return t(`method.${option}`);
  };
  const ownButton = sandboxMethod || stripeCardShown || !!localGroup;
  const payText = () => {
    const amount = money(todaysCharge);
    if (!localChannel) return t('pay', { amount });
    const channelName = t(`local.channel.${localChannel}`);
    if (localGroup === 'qris') return t('local.pay.qris', { amount });
    return t(localGroup === 'ewallet' ? 'local.pay.ewallet' : 'local.pay.bank', { amount, name: channelName });
  };

  return (
    <form name={name} noValidate onSubmit={(event) => void submit(event)} className="payment-form">
      <PaymentTermsSummary
        terms={terms}
        locale={locale}
        kind={kind}
        nextPeriodStart={nextPeriodStart}
        paysEachPeriod={!!localGroup}
      />

      <fieldset className={`payment-form__methods${localChannels.length ? ' payment-form__methods--stacked' : ''}`}>
        <legend>{t('method.legend')}</legend>
        <div className="payment-form__options">
          {methods.map((option) => (
            <label key={option} className="payment-form__option">
              <input
                type="radio"
                name={`${name}-method`}
                value={option}
                checked={choice === option}
                onChange={() => {
                  setMethod(option);
                  setFailure(null);
                }}
              />
              <span>{methodLabel(option)}</span>
            </label>
          ))}
        </div>
      </fieldset>

      {localGroup && localChannel && (
        <LocalMethodChoice
          name={name}
          group={localGroup}
          channels={channelsOf(localGroup)}
          value={localChannel}
          onChange={(channel) => {
            setPicked((current) => ({ ...current, [localGroup]: channel }));
            setFailure(null);
          }}
        />
      )}
      {localGroup && sandboxMethod && (
        <p className="payment-form__sandbox">
          <span className="payment-form__badge">{t('sandbox.badge')}</span>
          {t('sandbox.localText')}
        </p>
      )}

      {sandboxMethod && cardChosen && (
        <section className="payment-form__sandbox" aria-labelledby={`${name}-sandbox-title`}>
          <h3 id={`${name}-sandbox-title`}>
            <span className="payment-form__badge">{t('sandbox.badge')}</span>
            {t('sandbox.title')}
          </h3>
          <p>{t('sandbox.intro')}</p>
          <ul>
            {sandboxTestCards.map((card) => (
              <li key={card.number}>
                <code>{card.number}</code> {t(`sandbox.${card.outcome}`)}
              </li>
            ))}
          </ul>
        </section>
      )}
      {sandboxMethod && !localGroup && !cardChosen && (
        <p className="payment-form__sandbox">
          <span className="payment-form__badge">{t('sandbox.badge')}</span>
          {t(method === 'wallet' ? 'sandbox.walletText' : 'sandbox.paypalText')}
        </p>
      )}

      {cardChosen && (sandboxMethod || stripeCardShown) && (
        <div className="payment-form__row">
          {cardField('cardName', t('card.name'), { autoComplete: 'cc-given-name', maxLength: 100 })}
          {cardField('cardSurname', t('card.surname'), { autoComplete: 'cc-family-name', maxLength: 100 })}
        </div>
      )}
      {cardChosen && sandboxMethod && (
        <>
          {cardField('cardNumber', t('card.number'), {
            inputMode: 'numeric',
            autoComplete: 'cc-number',
            placeholder: '4242 4242 4242 4242',
          })}
          <div className="payment-form__row">
            {cardField('cardExpiry', t('card.expiry'), {
              inputMode: 'numeric',
              autoComplete: 'cc-exp',
              placeholder: '12/30',
            })}
            {cardField('cardCvv', t('card.cvv'), { inputMode: 'numeric', autoComplete: 'cc-csc' }, t('card.cvvHint'))}
          </div>
        </>
      )}
      {stripeCardShown && (
        <StripeCardField ref={stripeCard} publishableKey={terms.stripePublishableKey!} locale={locale} />
      )}

      <div className="payment-form__field payment-form__field--box">
        <input
          id={idOf('consent')}
          name="consent"
          type="checkbox"
          ref={(element) => {
            inputs.current.consent = element;
          }}
          checked={consent}
          onChange={(event) => setConsentGiven(event.target.checked)}
          aria-invalid={errors.consent ? true : undefined}
          aria-describedby={describedBy('consent', false)}
        />
        <label htmlFor={idOf('consent')}>
          <Trans
            t={t}
            i18nKey="consent"
            components={{
              terms: <a href={localizePath(routePaths.termsOfUse, locale)} target="_blank" rel="noopener noreferrer" />,
              privacy: (
                <a href={localizePath(routePaths.privacyPolicy, locale)} target="_blank" rel="noopener noreferrer" />
              ),
            }}
          />
        </label>
        {errorOf('consent')}
      </div>

      {failure && (
        <p role="alert" className="payment-notice payment-notice--error payment-form__failure">
          {failure}
        </p>
      )}

      {choice === 'wallet' && provider === 'stripe' && (
        <StripeWalletButton
          terms={terms}
          amount={walletAmount}
          locale={locale}
          totalLabel="Kabari"
          mayPay={mayPay}
          pay={(paymentMethodId) =>
            new Promise<void>((resolve, reject) => {
              void attempt(async () => {
                let outcome: StripeOutcome;
                try {
                  outcome = await handlers.stripe({ method: 'wallet', paymentMethodId });
                  // The wallet sheet closes here; a 3-D Secure step follows in Stripe's own dialog.
                  resolve();
                } catch (error) {
                  reject(error as Error);
                  throw error;
                }
                if (outcome.requiresAction && outcome.clientSecret) {
                  // The bank wants the payer to confirm: completed before the result screen, which then reads
                  // how it ended (a failed confirmation is a decline there, by the webhook).
                  const stripe = await loadStripeOnce(terms.stripePublishableKey!);
                  await stripe?.confirmCardPayment(outcome.clientSecret);
                }
                return outcome.registerId;
              });
            })
          }
        />
      )}
      {choice === 'paypal' && provider === 'paypal' && handlers.paypal && terms.paypalClientId && (
        <PaypalButton
          clientId={terms.paypalClientId}
          currencyCode={terms.currencyCode}
          locale={locale}
          mayPay={mayPay}
          createOrder={async () => {
            const order = await handlers.paypal!.create();
            paypalRegisterId.current = order.registerId;
            return order.orderId;
          }}
          approve={(orderId) =>
            attempt(() => handlers.paypal!.capture(paypalRegisterId.current!, orderId)).then(() => undefined)
          }
          onFailure={fail}
        />
      )}

      {ownButton && (
        <button
          type="submit"
          className="payment-button payment-button--primary payment-button--large"
          aria-disabled={paying || undefined}
          data-busy={paying || undefined}
        >
          {paying ? t(localGroup ? 'local.preparing' : 'paying') : payText()}
        </button>
      )}
      {localGroup && (
        <p className="payment-form__local-next">{t(kind === 'payAhead' ? 'local.nextPayAhead' : 'local.next')}</p>
      )}
    </form>
  );
}

/** The warning sign beside a notice, as antd's alerts had it: the notice's words say it all without it. */
function WarningIcon() {
  return (
    <svg
      className="payment-notice__icon"
      viewBox="0 0 16 16"
      width="16"
      height="16"
      aria-hidden="true"
      focusable="false"
    >
      <path d="M8 1.5 15 14H1L8 1.5Z" fill="currentColor" />
      <path d="M8 6v3.5M8 11.3v.2" stroke="#fff" strokeWidth="1.6" strokeLinecap="round" />
    </svg>
  );
}
