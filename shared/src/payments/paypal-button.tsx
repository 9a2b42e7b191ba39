import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Locale } from '@kabari/shared/i18n/locale';
import { paymentsNamespace } from './payments-namespace';

interface PaypalButtonProps {
  clientId: string;
  currencyCode: string;
  locale: Locale;
  /** false: the click is refused (the terms are not accepted yet). */
  mayPay: () => boolean;
  /** Our server creates the order: resolves with PayPal's order id. */
  createOrder: () => Promise<string>;
  /** After the buyer approves: our server captures the order. */
  approve: (orderId: string) => Promise<void>;
  onFailure: (error: unknown) => void;
}

/** The PayPal JS SDK button, loaded only when PayPal is chosen. */
export function PaypalButton({
  clientId,
  currencyCode,
  locale,
  mayPay,
  createOrder,
  approve,
  onFailure,
}: PaypalButtonProps) {
  const { t } = useTranslation(paymentsNamespace);
  const mountPoint = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const latest = useRef({ mayPay, createOrder, approve, onFailure });
  useEffect(() => {
    latest.current = { mayPay, createOrder, approve, onFailure };
  });

  useEffect(() => {
    let cancelled = false;
    let close: (() => Promise<void>) | undefined;
    import('@paypal/paypal-js')
      .then(({ loadScript }) =>
        loadScript({
          clientId,
          currency: currencyCode,
          locale: locale === 'id' ? 'id_ID' : 'en_US',
          intent: 'capture',
        }),
      )
      .then(async (paypal) => {
        if (cancelled) return;
        if (!paypal?.Buttons || !mountPoint.current) return setState('failed');
        const buttons = paypal.Buttons({
          onClick: (_data, actions) => (latest.current.mayPay() ? actions.resolve() : actions.reject()),
          createOrder: () => latest.current.createOrder(),
          onApprove: async (data) => {
            await latest.current.approve(data.orderID);
          },
          onError: (error) => latest.current.onFailure(error),
        });
        close = () => buttons.close();
        await buttons.render(mountPoint.current);
        if (!cancelled) setState('ready');
      })
      .catch(() => !cancelled && setState('failed'));
    return () => {
      cancelled = true;
      void close?.().catch(() => undefined);
    };
  }, [clientId, currencyCode, locale]);

  return (
    <div className="payment-form__paypal">
      {state === 'loading' && <p>{t('paypal.loading')}</p>}
      {state === 'failed' && <p role="alert">{t('paypal.failed')}</p>}
      <div ref={mountPoint} />
    </div>
  );
}
