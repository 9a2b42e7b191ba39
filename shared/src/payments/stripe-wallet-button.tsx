import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Locale } from '@kabari/shared/i18n/locale';
import { loadStripeOnce } from './stripe-card-field';
import type { PaymentTerms } from './payment-terms';
import { paymentsNamespace } from './payments-namespace';

interface StripeWalletButtonProps {
  terms: PaymentTerms;
  /** Today's charge as Stripe counts it (from the server, which holds Stripe's rules); none: no wallet. */
  amount: number | undefined;
  locale: Locale;
  totalLabel: string;
  /** false: the click is refused (the terms are not accepted yet). */
  mayPay: () => boolean;
  /** Sends the PaymentMethod to our server; resolves once the payment is settled there (or rejects). */
  pay: (paymentMethodId: string) => Promise<void>;
}

/** Apple Pay / Google Pay through Stripe, where the browser offers one. */
export function StripeWalletButton({ terms, amount, locale, totalLabel, mayPay, pay }: StripeWalletButtonProps) {
  const { t } = useTranslation(paymentsNamespace);
  const mountPoint = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'checking' | 'ready' | 'unavailable'>(
    terms.stripePublishableKey && amount !== undefined ? 'checking' : 'unavailable',
  );
  // The latest callbacks, read by Stripe's event handlers registered once.
  const latest = useRef({ mayPay, pay });
  useEffect(() => {
    latest.current = { mayPay, pay };
  });

  useEffect(() => {
    let cancelled = false;
    let unmount: (() => void) | undefined;
    const key = terms.stripePublishableKey;
    if (!key || amount === undefined) return;
    void loadStripeOnce(key).then((stripe) => {
      if (cancelled || !stripe || !mountPoint.current) return setState('unavailable');
      // Stripe's Express Checkout Element (the successor of the payment request button): the wallet
      // sheet hands back a PaymentMethod, which our server charges like a card's.
      const elements = stripe.elements({
        mode: 'payment',
        amount,
        currency: terms.currencyCode.toLowerCase(),
        paymentMethodCreation: 'manual',
        locale: locale === 'id' ? 'id' : 'en',
      });
      const button = elements.create('expressCheckout', {
        paymentMethods: { applePay: 'always', googlePay: 'always', link: 'never', paypal: 'never', amazonPay: 'never' },
      });
      button.on('ready', (event) => {
        if (!cancelled) setState(event.availablePaymentMethods ? 'ready' : 'unavailable');
      });
      button.on('click', (event) => {
        if (latest.current.mayPay()) event.resolve({ business: { name: totalLabel } });
        else event.reject();
      });
      button.on('confirm', (event) => {
        void (async () => {
          const submitted = await elements.submit();
          if (submitted.error) return event.paymentFailed({ reason: 'fail' });
          const created = await stripe.createPaymentMethod({ elements });
          if (created.error || !created.paymentMethod) return event.paymentFailed({ reason: 'fail' });
          await latest.current.pay(created.paymentMethod.id).catch(() => event.paymentFailed({ reason: 'fail' }));
        })();
      });
      button.mount(mountPoint.current);
      unmount = () => button.destroy();
    });
    return () => {
      cancelled = true;
      unmount?.();
    };
  }, [terms, amount, locale, totalLabel]);

  return (
    <div className="payment-form__wallet">
      {state === 'checking' && <p>{t('wallet.checking')}</p>}
      {state === 'unavailable' && <p role="status">{t('wallet.unavailable')}</p>}
      <div ref={mountPoint} />
    </div>
  );
}
