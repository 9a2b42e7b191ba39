import { apiPost } from '@kabari/shared/api/api-client';
import { fetchPaymentTerms, type PaymentTerms } from './payment-terms';

// TEMPORARY until the server's routes land: the contract's shapes, replaced by the generated types.
export type LocalChannel = 'qris' | 'gopay' | 'shopeepay' | 'bca_va' | 'bni_va' | 'bri_va' | 'mandiri_bill';
export interface LocalPayment {
  channel: LocalChannel;
  amount: number;
  currencyCode: string;
  merchantName: string;
  expiresAt: string;
  qrString?: string;
  deeplinkUrl?: string;
  vaNumber?: string;
  billerCode?: string;
  provider?: 'midtrans' | 'sandbox';
}

/** How the payment step groups the local channels: QRIS, then the e-wallets, then the banks' virtual accounts. */
export type LocalGroup = 'qris' | 'ewallet' | 'bank';

export function localGroupOf(channel: LocalChannel): LocalGroup {
  if (channel === 'qris') return 'qris';
  if (channel === 'gopay' || channel === 'shopeepay') return 'ewallet';
  return 'bank';
}

/** A bank transfer's channel: its number is paid into from the bank's app, ATM or another bank. */
export type BankChannel = Extract<LocalChannel, 'bca_va' | 'bni_va' | 'bri_va' | 'mandiri_bill'>;

export function isBankChannel(channel: LocalChannel): channel is BankChannel {
  return localGroupOf(channel) === 'bank';
}

/**
 * Whether a waiting payment is the sandbox's (no money moves, and it can be simulated). The payment says so when the
 * server names its provider; otherwise the instance's processor for the rupiah price answers: one instance has one.
 */
export async function isSandboxPayment(payment: LocalPayment): Promise<boolean> {
  if (payment.provider) return payment.provider === 'sandbox';
  return localProviderOf(await fetchPaymentTerms('id')) === 'sandbox';
}

/** The sandbox's stand-in for the gateway's notification: marks a waiting sandbox payment paid. */
export async function simulateSandboxPayment(registerId: string): Promise<void> {
  await apiPost(
    '/api/v1/personnal/sandboxPayments/{registerId}/pay' as never,
    undefined as never,
    {
      path: { registerId },
      toastErrors: false,
    } as never,
  );
}

/** The local channels a price offers, in their display order; none when the gateway or the currency rules them out. */
export function localChannelsOf(terms: PaymentTerms): LocalChannel[] {
  // TEMPORARY cast until the generated types carry methods.local and localChannels.
  const local = terms as PaymentTerms & {
    methods: { local?: 'midtrans' | 'sandbox' | null };
    localChannels?: LocalChannel[];
  };
  return local.methods.local ? (local.localChannels ?? []) : [];
}

export function localProviderOf(terms: PaymentTerms): 'midtrans' | 'sandbox' | null {
  return (terms as PaymentTerms & { methods: { local?: 'midtrans' | 'sandbox' | null } }).methods.local ?? null;
}
