import { createHash, timingSafeEqual } from 'node:crypto';
import jsQR from 'jsqr';
import { CoreApi } from 'midtrans-client';
import { PNG } from 'pngjs';
import type { LocalChannel } from '../db/column-values';
import { minorDigits } from '@kabari/rules/money';
import type { ChargeOutcome, PaymentProcessor, SavedChargeRequest } from './processor';
import type { MidtransSettings } from './provider-settings';
import { isRefusal, RefundRefused, refusalCode } from './refund-refused';
import { localFailure, type LocalCharge, type LocalChargeRequest, type LocalStatus } from './local-payments';

/** The parts of the SDK's CoreApi that Kabari calls (its published types declare only `charge`). */
interface CoreApiClient {
  charge(parameter: unknown): Promise<unknown>;
  transaction: {
    status(orderId: string): Promise<unknown>;
    expire(orderId: string): Promise<unknown>;
    refund(orderId: string, parameter: unknown): Promise<unknown>;
  };
  apiConfig: { getCoreApiBaseUrl(): string };
  httpClient: { http_client: { defaults: { timeout?: number } } };
}

/** What the SDK rejects with for an answer of 400 and above (MidtransError): the status, and Midtrans's body. */
interface MidtransApiError {
  httpStatusCode?: number | string | null;
  ApiResponse?: { status_code?: string; status_message?: string } | null;
}

function httpStatusOf(error: unknown): number | undefined {
  const status = (error as MidtransApiError | null)?.httpStatusCode;
  const value = Number(status);
  return status !== null && status !== undefined && Number.isInteger(value) ? value : undefined;
}

/** The parts of a charge, status or notification answer that Kabari reads. */
interface MidtransAnswer {
  status_code?: string;
  transaction_id?: string;
  transaction_status?: string;
  fraud_status?: string;
  order_id?: string;
  gross_amount?: string;
  currency?: string;
  payment_type?: string;
  qr_string?: string;
  actions?: { name?: string; url?: string }[];
  va_numbers?: { bank?: string; va_number?: string }[];
  bill_key?: string;
  biller_code?: string;
  /** Refunded orders: everything refunded so far, and each refund (Midtrans's status and notifications). */
  refund_amount?: string;
  refunds?: { refund_amount?: string }[];
}

/** How each channel is asked for in a charge (payment_type and its own object), from Midtrans's Core API. */
function channelParameters(channel: LocalChannel): Record<string, unknown> {
  switch (channel) {
    case 'qris':
      return { payment_type: 'qris' };
    case 'gopay':
      return { payment_type: 'gopay', gopay: { enable_callback: false } };
    case 'shopeepay':
      return { payment_type: 'shopeepay', shopeepay: {} };
    case 'bca_va':
      return { payment_type: 'bank_transfer', bank_transfer: { bank: 'bca' } };
    case 'bni_va':
      return { payment_type: 'bank_transfer', bank_transfer: { bank: 'bni' } };
    case 'bri_va':
      return { payment_type: 'bank_transfer', bank_transfer: { bank: 'bri' } };
    case 'mandiri_bill':
      return { payment_type: 'echannel', echannel: { bill_info1: 'Payment:', bill_info2: 'Kabari' } };
  }
}

/**
 * The channels whose payments Midtrans can give back through its refund API (the e-wallets and QRIS); a bank
 * transfer to a virtual account or a Mandiri bill payment cannot be, and is refunded by a transfer by hand.
 */
const REFUNDABLE_PAYMENT_TYPES = new Set(['qris', 'gopay', 'shopeepay']);

/**
 * The hosts Midtrans serves a GoPay QR image from (its API, under its current and its former name: its documentation
 * shows both). No other address is fetched.
 */
const MIDTRANS_IMAGE_HOSTS = new Set([
  'api.midtrans.com',
  'api.sandbox.midtrans.com',
  'api.veritrans.co.id',
  'api.sandbox.veritrans.co.id',
]);

/** A QR image larger than this is not Midtrans's (theirs are a few kilobytes). */
const MAX_QR_IMAGE_BYTES = 1_000_000;

/** The text a QR code image (PNG) holds; null when none can be read from it. */
export function qrTextOf(png: Buffer): string | null {
  const image = PNG.sync.read(png);
  const pixels = new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.length);
  return jsQR(pixels, image.width, image.height)?.data || null;
}

/** Midtrans's refund_key is at most 50 characters: our refund key, hashed, is the same key on every retry. */
function refundKey(idempotencyKey: string): string {
  return `kabari-${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 40)}`;
}

/** Midtrans's decimal amount ("14900.00") in our minor units, or null when it is not one. */
export function midtransMinor(value: string | undefined, currency: string): number | null {
  if (!value || !/^\d+(\.\d+)?$/.test(value)) return null;
  return Math.round(Number(value) * 10 ** minorDigits(currency));
}

/**
 * The notification's signature_key as Midtrans computes it: SHA-512 of order_id, status_code, gross_amount and the
 * server key, in hex.
 */
export function midtransSignature(
  fields: { order_id: string; status_code: string; gross_amount: string },
  serverKey: string,
): string {
  return createHash('sha512')
    .update(`${fields.order_id}${fields.status_code}${fields.gross_amount}${serverKey}`)
    .digest('hex');
}

/**
 * Midtrans through its Core API SDK (`midtrans-client`): one charge call per payment, whose answer carries what the
 * payer needs (the QRIS string, the e-wallet's deep link, the virtual account number); the status call confirms
 * every notification before a payment counts; expire ends an attempt that ran out of time; refund gives an
 * e-wallet or QRIS payment back. The order id is the attempt's id: Midtrans takes each order id once, so a retried
 * charge never makes a second payment.
 */
export class MidtransProcessor implements PaymentProcessor {
  readonly provider = 'midtrans' as const;
  private readonly core: CoreApiClient;

  constructor(readonly settings: MidtransSettings) {
    this.core = new CoreApi({
      isProduction: settings.environment === 'production',
      serverKey: settings.serverKey,
      clientKey: '',
    }) as unknown as CoreApiClient;
    // The SDK's axios waits forever by default: a call that hangs must fail and be tried again later.
    this.core.httpClient.http_client.defaults.timeout = 30_000;
    const apiUrl = settings.apiUrl;
    // Tests only (refused with PUBLIC_URL): this instance's calls go to the local fake of Midtrans's API.
    if (apiUrl) this.core.apiConfig.getCoreApiBaseUrl = () => apiUrl;
  }

  /** The payment the payer completes in their app: what the page shows them (Midtrans answers it pending). */
  async charge(request: LocalChargeRequest): Promise<LocalCharge> {
    const grossAmount = request.amount / 10 ** minorDigits(request.currency);
    const answer = (await this.core.charge({
      ...channelParameters(request.channel),
      transaction_details: { order_id: request.orderId, gross_amount: grossAmount },
      item_details: [{ id: 'kabari', price: grossAmount, quantity: 1, name: request.description.slice(0, 50) }],
      custom_expiry: { expiry_duration: request.expiryMinutes, unit: 'minute' },
    })) as MidtransAnswer;
    const action = (name: string) => answer.actions?.find((candidate) => candidate.name === name)?.url;
    const qrString =
      answer.qr_string ?? (request.channel === 'gopay' ? await this.qrTextAt(action('generate-qr-code')) : null);
    const charge: LocalCharge = {
      providerRef: request.orderId,
      qrString,
      deeplinkUrl: action('deeplink-redirect') ?? null,
      vaNumber:
        request.channel === 'mandiri_bill' ? (answer.bill_key ?? null) : (answer.va_numbers?.[0]?.va_number ?? null),
      billerCode: request.channel === 'mandiri_bill' ? (answer.biller_code ?? null) : null,
    };
    const shown = charge.qrString ?? charge.deeplinkUrl ?? charge.vaNumber;
    if (!shown) throw new Error(`Midtrans answered a ${request.channel} charge without what the payer needs`);
    return charge;
  }

  /**
   * GoPay's charge gives its QR code only as an image address (generate-qr-code), for a computer, where the Gojek app
   * cannot be opened: the image is fetched from Midtrans here and read, so the page draws the same code itself, as it
   * draws QRIS's (no third-party image on our pages). Null when it cannot be (not a Midtrans address, not a readable
   * QR, Midtrans failing): the deep link stays, and the page says to open it on the phone.
   */
  private async qrTextAt(url: string | undefined): Promise<string | null> {
    if (!url) return null;
    try {
      const target = new URL(url);
      const fake = this.settings.apiUrl !== undefined && target.origin === new URL(this.settings.apiUrl).origin;
      if (!fake && (target.protocol !== 'https:' || !MIDTRANS_IMAGE_HOSTS.has(target.hostname))) return null;
      const response = await fetch(target, { signal: AbortSignal.timeout(10_000), redirect: 'error' });
      const length = Number(response.headers.get('content-length') ?? 0);
      if (!response.ok || length > MAX_QR_IMAGE_BYTES) return null;
      const bytes = Buffer.from(await response.arrayBuffer());
      return bytes.length > MAX_QR_IMAGE_BYTES ? null : qrTextOf(bytes);
    } catch {
      return null;
    }
  }

  /** The payment as Midtrans has it now; null when Midtrans knows no such order. */
  async status(orderId: string): Promise<LocalStatus | null> {
    let answer: MidtransAnswer;
    try {
      answer = (await this.core.transaction.status(orderId)) as MidtransAnswer;
    } catch (error) {
      if (httpStatusOf(error) === 404) return null;
      throw error;
    }
    const currency = answer.currency ?? 'IDR';
    const amount = midtransMinor(answer.gross_amount, currency);
    return {
      state: statusState(answer, amount, currency),
      amount,
      currency,
      providerRef: orderId,
      paymentType: answer.payment_type ?? null,
    };
  }

  /**
   * Ends a payment nobody completed in time, so it can no longer be paid. Midtrans refuses to expire one that was
   * paid or ended meanwhile: the caller reads its status again either way.
   */
  async expire(orderId: string): Promise<void> {
    try {
      await this.core.transaction.expire(orderId);
    } catch (error) {
      const status = httpStatusOf(error);
      // 404: never created; 407: expired already; 412: settled or ended meanwhile (the status says which).
      if (status === 404 || status === 407 || status === 412) return;
      throw error;
    }
  }

  /**
   * Gives a payment back in full where its channel allows it (QRIS, GoPay, ShopeePay); a virtual account or a
   * Mandiri bill payment is refused (RefundRefused 'manual_transfer'): it goes to the operator, who transfers the
   * money back by hand. A payment Midtrans says is refunded in full already is done. A retry is the same refund (its key).
   */
  async refund(orderId: string | null, idempotencyKey: string): Promise<void> {
    if (!orderId) throw new RefundRefused('no_provider_reference', undefined);
    const status = await this.status(orderId);
    if (!status) throw new RefundRefused('order_not_found', 404);
    // Refunded in full already (a retry, or by hand in the dashboard). One refunded in part is refused below (412):
    // the rest goes to the operator.
    const { state } = status;
    if (
      state.kind === 'refunded' &&
      state.refunded !== null &&
      status.amount !== null &&
      state.refunded >= status.amount
    )
      return;
    if (!status.paymentType || !REFUNDABLE_PAYMENT_TYPES.has(status.paymentType)) {
      throw new RefundRefused('manual_transfer', undefined);
    }
    try {
      await this.core.transaction.refund(orderId, {
        refund_key: refundKey(idempotencyKey),
        reason: 'Kabari: payment not owed',
      });
    } catch (error) {
      const code = httpStatusOf(error);
      if (isRefusal(code)) {
        const answer = (error as MidtransApiError).ApiResponse;
        throw new RefundRefused(
          refusalCode(answer?.status_code ? `midtrans_${answer.status_code}` : undefined, code),
          code,
        );
      }
      throw error;
    }
  }

  /** Cannot be charged without its payer: a renewal is paid by the subscriber (renewals.ts never asks). */
  async chargeSaved(request: SavedChargeRequest): Promise<ChargeOutcome> {
    return localFailure('renews_when_paid', null, request.locale);
  }

  /** Midtrans keeps no saved customer or payment method of ours. */
  async forgetSavedCustomer(): Promise<void> {}

  /** Whether a notification's signature_key is Midtrans's, compared in constant time. */
  isGenuine(fields: { order_id: string; status_code: string; gross_amount: string; signature_key: string }): boolean {
    const expected = Buffer.from(midtransSignature(fields, this.settings.serverKey), 'utf8');
    const given = Buffer.from(fields.signature_key, 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

/**
 * Everything refunded on an order: the sum of its refunds when the answer lists them, else its refund_amount
 * (cumulative, as Midtrans documents it); a full refund that says neither is the whole amount.
 */
function refundedMinor(answer: MidtransAnswer, amount: number | null, currency: string): number | null {
  const listed = (answer.refunds ?? []).map((refund) => midtransMinor(refund.refund_amount, currency));
  if (listed.length > 0 && listed.every((value) => value !== null)) {
    return listed.reduce<number>((sum, value) => sum + value!, 0);
  }
  const total = midtransMinor(answer.refund_amount, currency);
  if (total !== null && total > 0) return total;
  return answer.transaction_status === 'refund' ? amount : null;
}

/** A status answer as Kabari reads it: paid, waiting, ended (and why), or refunded (and how much). */
function statusState(answer: MidtransAnswer, amount: number | null, currency: string): LocalStatus['state'] {
  switch (answer.transaction_status) {
    case 'settlement':
      return { kind: 'paid' };
    case 'capture':
      // Cards only: a capture Midtrans's fraud check holds (challenge) is not paid yet.
      return answer.fraud_status === 'accept' ? { kind: 'paid' } : { kind: 'waiting' };
    case 'pending':
    case 'authorize':
      return { kind: 'waiting' };
    case 'expire':
      return { kind: 'ended', code: 'payment_expired' };
    case 'cancel':
      return { kind: 'ended', code: 'payment_cancelled' };
    case 'deny':
    case 'failure':
      return { kind: 'ended', code: 'payment_denied' };
    case 'refund':
    case 'partial_refund':
      return { kind: 'refunded', refunded: refundedMinor(answer, amount, currency) };
    default:
      return { kind: 'waiting' };
  }
}
