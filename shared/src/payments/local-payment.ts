import { apiPost } from '@kabari/shared/api/api-client';
import type { ApiData } from '@kabari/shared/api/api-types';
import { fetchPaymentTerms, type PaymentTerms } from './payment-terms';

/** What the page shows while a QRIS, e-wallet or bank transfer payment waits (registerAndSign/local, registerQuery). */
export type LocalPayment = ApiData<'/api/v1/auth/registerAndSign/local', 'post'>['payment'];
export type LocalChannel = LocalPayment['channel'];

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
 * Whether the instance takes local payments through the sandbox (no money moves, and a waiting payment can be
 * simulated): the rupiah price's processor says so, as the sandbox payment route exists only then.
 */
export async function sandboxTakesLocalPayments(): Promise<boolean> {
  return (await fetchPaymentTerms('id')).methods.local === 'sandbox';
}

/** The sandbox's stand-in for the gateway's notification: marks a waiting sandbox payment paid. */
export async function simulateSandboxPayment(registerId: string): Promise<void> {
  await apiPost('/api/v1/personnal/sandboxPayments/{id}/pay', undefined, {
    path: { id: registerId },
    toastErrors: false,
  });
}

/** The local channels a price offers, in their display order; none when the gateway or the currency rules them out. */
export function localChannelsOf(terms: PaymentTerms): LocalChannel[] {
  return terms.methods.local ? terms.localChannels : [];
}
