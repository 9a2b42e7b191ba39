import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Stripe, StripeCardElement } from '@stripe/stripe-js';
import { paymentsNamespace } from './payments-namespace';

export interface StripeCardFieldHandle {
  /** Creates the PaymentMethod in the browser: the card number and CVV go to Stripe only. */
  createPaymentMethod: (billingName: string) => Promise<string>;
  stripe: () => Stripe | null;
}

let stripePromise: Promise<Stripe | null> | null = null;

/** Stripe.js, loaded the first time a Stripe form is shown (never on a page a visitor lands on). */
export function loadStripeOnce(publishableKey: string): Promise<Stripe | null> {
  stripePromise ??= import('@stripe/stripe-js').then(({ loadStripe }) => loadStripe(publishableKey));
  return stripePromise;
}

/** The card number, expiry and CVV in Stripe's own iframe (Stripe Elements). */
export const StripeCardField = forwardRef<StripeCardFieldHandle, { publishableKey: string; locale: string }>(
  function StripeCardField({ publishableKey, locale }, ref) {
    const { t } = useTranslation(paymentsNamespace);
    const mountPoint = useRef<HTMLDivElement>(null);
    const card = useRef<StripeCardElement | null>(null);
    const stripe = useRef<Stripe | null>(null);
    const [failed, setFailed] = useState(false);

    useEffect(() => {
      let cancelled = false;
      loadStripeOnce(publishableKey)
        .then((loaded) => {
          if (cancelled || !loaded || !mountPoint.current) return;
          stripe.current = loaded;
          const elements = loaded.elements({ locale: locale === 'id' ? 'id' : 'en' });
          card.current = elements.create('card', { hidePostalCode: true });
          card.current.mount(mountPoint.current);
        })
        .catch(() => !cancelled && setFailed(true));
      return () => {
        cancelled = true;
        card.current?.destroy();
        card.current = null;
      };
    }, [publishableKey, locale]);

    useImperativeHandle(ref, () => ({
      stripe: () => stripe.current,
      createPaymentMethod: async (billingName) => {
        if (!stripe.current || !card.current) throw new Error(t('genericFailure'));
        const result = await stripe.current.createPaymentMethod({
          type: 'card',
          card: card.current,
          billing_details: { name: billingName },
        });
        if (result.error || !result.paymentMethod) throw new Error(result.error?.message ?? t('genericFailure'));
        return result.paymentMethod.id;
      },
    }));

    return (
      <div className="payment-form__field">
        <span className="payment-form__label" id="stripe-card-label">
          {t('card.stripeFields')}
        </span>
        <div ref={mountPoint} className="payment-form__stripe-card" role="group" aria-labelledby="stripe-card-label" />
        {failed && (
          <p className="payment-form__error" role="alert">
            {t('genericFailure')}
          </p>
        )}
      </div>
    );
  },
);
