import { useRef, useState } from 'react';
import type { ApiData } from '../api/api-types';
import { Trans, useTranslation } from 'react-i18next';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Radio from 'antd/es/radio';
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
  /** The antd form's name: its fields' ids (and so their labels) are unique on the page. */
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

interface CardValues {
  cardName?: string;
  cardSurname?: string;
  cardNumber?: string;
  cardExpiry?: string;
  cardCvv?: string;
  consent?: boolean;
}

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
  const [form] = Form.useForm<CardValues>();
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
      <Alert
        type="warning"
        showIcon
        className="payment-form payment-form__not-configured"
        title={t('notConfigured.title')}
        description={t('notConfigured.text')}
      />
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

  const consentGiven = () => form.getFieldValue('consent') === true;
  /** For the providers' own buttons: refuse the click and say why while the terms are not accepted. */
  const mayPay = () => {
    if (consentGiven()) return true;
    void form.validateFields(['consent']).catch(() => undefined);
    return false;
  };

  const submit = async () => {
    const fields: (keyof CardValues)[] =
      cardChosen && sandboxMethod
        ? ['cardName', 'cardSurname', 'cardNumber', 'cardExpiry', 'cardCvv', 'consent']
        : stripeCardShown
          ? ['cardName', 'cardSurname', 'consent']
          : ['consent'];
    let values: CardValues;
    try {
      values = await form.validateFields(fields);
    } catch {
      return;
    }
    await attempt(async () => {
      if (localChannel) return handlers.local!(localChannel);
      if (cardChosen && sandboxMethod) {
        const expiry = parseExpiry(values.cardExpiry ?? '')!;
        return handlers.sandbox({
          method: 'card',
          card: {
            name: values.cardName!.trim(),
            surname: values.cardSurname!.trim(),
            number: digitsOnly(values.cardNumber!),
            expiryMonth: expiry.month,
            expiryYear: expiry.year,
            cvv: values.cardCvv!.trim(),
          },
        });
      }
      if (stripeCardShown) {
        const paymentMethodId = await stripeCard.current!.createPaymentMethod(
          `${values.cardName!.trim()} ${values.cardSurname!.trim()}`,
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

  const required = (key: string, valid: (value: string) => boolean) => ({
    validator: (_rule: unknown, value: string | undefined) =>
      valid((value ?? '').trim()) ? Promise.resolve() : Promise.reject(new Error(t(key as never))),
  });

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
    <Form
      name={name}
      form={form}
      layout="vertical"
      requiredMark={false}
      noValidate
      onFinish={() => void submit()}
      onValuesChange={() => setFailure(null)}
      className="payment-form"
    >
      <PaymentTermsSummary
        terms={terms}
        locale={locale}
        kind={kind}
        nextPeriodStart={nextPeriodStart}
        paysEachPeriod={!!localGroup}
      />

      <fieldset className={`payment-form__methods${localChannels.length ? ' payment-form__methods--stacked' : ''}`}>
        <legend>{t('method.legend')}</legend>
        <Radio.Group
          name={`${name}-method`}
          value={choice}
          onChange={(event) => {
            setMethod(event.target.value as MethodChoice);
            setFailure(null);
          }}
          options={methods.map((option) => ({ value: option, label: methodLabel(option) }))}
        />
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
          <Form.Item name="cardName" label={t('card.name')} rules={[required('card.errors.name', Boolean)]}>
            <Input autoComplete="cc-given-name" maxLength={100} />
          </Form.Item>
          <Form.Item name="cardSurname" label={t('card.surname')} rules={[required('card.errors.surname', Boolean)]}>
            <Input autoComplete="cc-family-name" maxLength={100} />
          </Form.Item>
        </div>
      )}
      {cardChosen && sandboxMethod && (
        <>
          <Form.Item
            name="cardNumber"
            label={t('card.number')}
            normalize={formatCardNumber}
            rules={[required('card.errors.number', isCardNumberValid)]}
          >
            <Input inputMode="numeric" autoComplete="cc-number" placeholder="4242 4242 4242 4242" />
          </Form.Item>
          <div className="payment-form__row">
            <Form.Item
              name="cardExpiry"
              label={t('card.expiry')}
              normalize={formatExpiry}
              rules={[required('card.errors.expiry', (value) => isExpiryValid(value))]}
            >
              <Input inputMode="numeric" autoComplete="cc-exp" placeholder="12/30" />
            </Form.Item>
            <Form.Item
              name="cardCvv"
              label={t('card.cvv')}
              extra={t('card.cvvHint')}
              normalize={(value: string) => digitsOnly(value).slice(0, 4)}
              rules={[required('card.errors.cvv', isCvvValid)]}
            >
              <Input inputMode="numeric" autoComplete="cc-csc" />
            </Form.Item>
          </div>
        </>
      )}
      {stripeCardShown && (
        <StripeCardField ref={stripeCard} publishableKey={terms.stripePublishableKey!} locale={locale} />
      )}

      <Form.Item
        name="consent"
        valuePropName="checked"
        rules={[
          {
            validator: (_rule, value) =>
              value === true ? Promise.resolve() : Promise.reject(new Error(t('consentRequired'))),
          },
        ]}
      >
        <Checkbox>
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
        </Checkbox>
      </Form.Item>

      {failure && <Alert type="error" showIcon title={failure} role="alert" className="payment-form__failure" />}

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
        <Button type="primary" htmlType="submit" block size="large" loading={paying}>
          {paying ? t(localGroup ? 'local.preparing' : 'paying') : payText()}
        </Button>
      )}
      {localGroup && (
        <p className="payment-form__local-next">{t(kind === 'payAhead' ? 'local.nextPayAhead' : 'local.next')}</p>
      )}
    </Form>
  );
}
