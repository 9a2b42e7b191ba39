import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import QRCode from 'qrcode';

// Midtrans's Core API played by a local HTTP server, from its documentation: POST /v2/charge (one order id once:
// a second charge with it is 406), GET /v2/{order_id}/status, POST /v2/{order_id}/expire (407 once expired, 412 once
// paid), POST /v2/{order_id}/refund (by refund_key), each behind HTTP basic auth with the server key as the user.
// The test marks an order paid and posts Midtrans's HTTP notification, signed as Midtrans signs it. A refunded order
// (ours, or one made in the dashboard: refundInDashboard) is 'refund' or 'partial_refund', and its status and
// notifications carry refund_amount (everything refunded so far) and refunds (each one), as Midtrans documents them.

interface FakeRefund {
  refund_chargeback_id: number;
  refund_amount: string;
  created_at: string;
  reason: string;
  refund_key: string;
  refund_method: string;
}

interface FakeOrder {
  order_id: string;
  transaction_id: string;
  payment_type: string;
  bank: string | null;
  gross_amount: string;
  currency: string;
  transaction_status: string;
  refundKeys: Set<string>;
  refunds: FakeRefund[];
}

export interface RecordedMidtransCall {
  method: string;
  path: string;
  body: Record<string, unknown>;
}

const STATUS_CODES: Record<string, string> = {
  pending: '201',
  settlement: '200',
  expire: '407',
  cancel: '200',
  deny: '202',
  refund: '200',
  partial_refund: '200',
};

/** Midtrans's decimal amounts: "5000.00". */
const decimal = (value: number) => value.toFixed(2);

export class FakeMidtrans {
  readonly calls: RecordedMidtransCall[] = [];
  readonly orders = new Map<string, FakeOrder>();
  /** The status call fails (Midtrans unreachable) while set. */
  statusUnavailable = false;
  /** Every call fails on a dropped connection (Midtrans out of reach) while set. */
  unreachable = false;
  /** GoPay's QR image cannot be fetched while set. */
  qrImageUnavailable = false;
  /** GoPay's charge names its QR image under an origin that is not the API's while set. */
  qrImageElsewhere = false;
  base = '';
  private server: Server | undefined;

  constructor(readonly serverKey: string) {}

  async start() {
    this.server = createServer((request, response) => {
      if (this.unreachable) {
        request.socket.destroy();
        return;
      }
      // GoPay's QR image (generate-qr-code): a PNG anyone with its address may load, as an <img> would.
      const image = /^\/v2\/gopay\/([\w-]+)\/qr-code$/.exec(request.url ?? '');
      if (image) {
        this.calls.push({ method: request.method ?? 'GET', path: request.url!, body: {} });
        const text = this.gopayQrText(image[1]!);
        if (!text || this.qrImageUnavailable) {
          response.writeHead(404, { 'content-type': 'application/json' });
          response.end('{"status_code":"404"}');
          return;
        }
        void QRCode.toBuffer(text, { type: 'png' }).then((png) => {
          response.writeHead(200, { 'content-type': 'image/png' });
          response.end(png);
        });
        return;
      }
      void this.answer(request).then(([status, value]) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(value));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async stop() {
    await new Promise((resolve) => this.server?.close(resolve));
  }

  /** The payer paid (or the order ended otherwise) at Midtrans; `amount` other than asked: a tampered order. */
  setStatus(orderId: string, status: string, amount?: string) {
    const order = this.orders.get(orderId);
    if (!order) throw new Error(`no such order: ${orderId}`);
    order.transaction_status = status;
    if (amount) order.gross_amount = amount;
  }

  /**
   * The merchant refunds `amount` (Midtrans's decimal, e.g. "5000.00"; all that is left when absent) in Midtrans's
   * dashboard: the order becomes partial_refund, or refund once all is given back.
   */
  refundInDashboard(orderId: string, amount?: string) {
    const order = this.orders.get(orderId);
    if (!order) throw new Error(`no such order: ${orderId}`);
    this.addRefund(order, amount, `dashboard-${order.refunds.length + 1}`);
  }

  private addRefund(order: FakeOrder, amount: string | undefined, key: string) {
    const gross = Number(order.gross_amount);
    const before = order.refunds.reduce((sum, refund) => sum + Number(refund.refund_amount), 0);
    const value = amount === undefined ? gross - before : Number(amount);
    order.refunds.push({
      refund_chargeback_id: order.refunds.length + 1,
      refund_amount: decimal(value),
      created_at: '2026-12-05 19:00:00',
      reason: '',
      refund_key: key,
      refund_method: 'online',
    });
    order.transaction_status = before + value >= gross ? 'refund' : 'partial_refund';
  }

  /** Midtrans's notification for the order as it stands (or as `overrides` says), signed with `key`. */
  notification(orderId: string, overrides: Record<string, string> = {}, key = this.serverKey) {
    const order = this.orders.get(orderId);
    const status = overrides.transaction_status ?? order?.transaction_status ?? 'pending';
    const fields = {
      transaction_time: '2026-12-05 18:00:00',
      transaction_status: status,
      transaction_id: order?.transaction_id ?? 'unknown',
      status_message: 'midtrans payment notification',
      status_code: STATUS_CODES[status] ?? '200',
      payment_type: order?.payment_type ?? 'qris',
      order_id: orderId,
      merchant_id: 'G000000000',
      gross_amount: order?.gross_amount ?? '1.00',
      fraud_status: 'accept',
      currency: 'IDR',
      ...(order && order.refunds.length > 0 && { refunds: order.refunds }),
      ...overrides,
    };
    const signature = createHash('sha512')
      .update(`${fields.order_id}${fields.status_code}${fields.gross_amount}${key}`)
      .digest('hex');
    return { ...fields, signature_key: signature };
  }

  /** The QRIS payload GoPay's QR image for this transaction holds (made up: no app pays it). */
  gopayQrText(transactionId: string): string | null {
    const order = [...this.orders.values()].find((candidate) => candidate.transaction_id === transactionId);
    return order?.payment_type === 'gopay'
      ? `00020101021126610014COM.GO-JEK.WWW0118${order.order_id}5204549953033605802ID6304GPAY`
      : null;
  }

  /** Posts a notification to the app's webhook as Midtrans does. */
  notify(app: FastifyInstance, payload: object) {
    return app.inject({
      method: 'POST',
      url: '/api/v1/webhooks/midtrans',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(payload),
    });
  }

  private async answer(request: IncomingMessage): Promise<[number, unknown]> {
    let text = '';
    for await (const chunk of request) text += String(chunk);
    const path = new URL(request.url ?? '/', this.base).pathname;
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    this.calls.push({ method: request.method ?? 'GET', path, body });
    const expected = `Basic ${Buffer.from(`${this.serverKey}:`).toString('base64')}`;
    if (request.headers.authorization !== expected) {
      return [401, { status_code: '401', status_message: 'Access denied, please check client or server key' }];
    }
    if (path === '/v2/charge' && request.method === 'POST') return this.charge(body);
    const match = /^\/v2\/([\w.~-]+)\/(status|expire|refund)$/.exec(path);
    const order = match ? this.orders.get(match[1]!) : undefined;
    if (!match) return [404, { status_code: '404', status_message: 'not found' }];
    if (!order) return [404, { status_code: '404', status_message: "Transaction doesn't exist." }];
    if (match[2] === 'status') {
      if (this.statusUnavailable) return [500, { status_code: '500', status_message: 'Internal server error' }];
      return [200, this.view(order)];
    }
    if (match[2] === 'expire') {
      if (order.transaction_status === 'expire') return [407, { status_code: '407', status_message: 'expired' }];
      if (order.transaction_status !== 'pending') {
        return [412, { status_code: '412', status_message: 'Merchant cannot modify the status of the transaction' }];
      }
      order.transaction_status = 'expire';
      return [200, { ...this.view(order), status_code: '407' }];
    }
    // Refund: e-wallets and QRIS only, once per refund_key.
    if (!['qris', 'gopay', 'shopeepay'].includes(order.payment_type)) {
      return [412, { status_code: '412', status_message: 'Payment type does not support refund' }];
    }
    if (order.transaction_status !== 'settlement' && order.transaction_status !== 'refund') {
      return [412, { status_code: '412', status_message: 'Transaction cannot be refunded' }];
    }
    const refundKey = String(body.refund_key);
    if (!order.refundKeys.has(refundKey) && order.transaction_status === 'settlement') {
      this.addRefund(order, undefined, refundKey);
    }
    order.refundKeys.add(refundKey);
    return [200, { ...this.view(order), status_code: '200' }];
  }

  private charge(body: Record<string, unknown>): [number, unknown] {
    const details = body.transaction_details as { order_id: string; gross_amount: number };
    if (this.orders.has(details.order_id)) {
      return [
        406,
        {
          status_code: '406',
          status_message: 'The request could not be processed: order_id has already been utilized',
        },
      ];
    }
    const type = String(body.payment_type);
    const bank = type === 'bank_transfer' ? String((body.bank_transfer as { bank: string }).bank) : null;
    const order: FakeOrder = {
      order_id: details.order_id,
      transaction_id: `tx-${this.orders.size + 1}`,
      payment_type: type,
      bank,
      gross_amount: `${details.gross_amount}.00`,
      currency: 'IDR',
      transaction_status: 'pending',
      refundKeys: new Set(),
      refunds: [],
    };
    this.orders.set(order.order_id, order);
    const answer: Record<string, unknown> = { ...this.view(order), status_message: `${type} transaction is created` };
    const actions = `${this.base}/v2/${type}/${order.transaction_id}`;
    if (type === 'qris') {
      answer.qr_string = `00020101021226620014COM.GO-JEK.WWW${order.order_id}5204549953033605802ID6304ABCD`;
      answer.actions = [{ name: 'generate-qr-code', method: 'GET', url: `${actions}/qr-code` }];
    }
    if (type === 'gopay') {
      // Elsewhere: the same image, served under another origin (localhost, not the API's 127.0.0.1).
      const image = `${this.qrImageElsewhere ? actions.replace('127.0.0.1', 'localhost') : actions}/qr-code`;
      answer.actions = [
        { name: 'generate-qr-code', method: 'GET', url: image },
        {
          name: 'deeplink-redirect',
          method: 'GET',
          url: `https://simulator.sandbox.midtrans.com/gopay/ui/checkout?referenceid=${order.transaction_id}`,
        },
      ];
    }
    if (type === 'shopeepay') {
      answer.actions = [
        {
          name: 'deeplink-redirect',
          method: 'GET',
          url: `https://simulator.sandbox.midtrans.com/v2/shopeepay/${order.transaction_id}`,
        },
      ];
    }
    if (bank)
      answer.va_numbers = [
        {
          bank,
          va_number: `${bank === 'bca' ? '12345' : '98765'}${order.transaction_id.replace(/\D/g, '').padStart(6, '0')}`,
        },
      ];
    if (type === 'echannel') {
      answer.bill_key = `5112${order.transaction_id.replace(/\D/g, '').padStart(8, '0')}`;
      answer.biller_code = '70012';
    }
    return [201, answer];
  }

  private view(order: FakeOrder) {
    return {
      status_code: STATUS_CODES[order.transaction_status] ?? '200',
      transaction_id: order.transaction_id,
      order_id: order.order_id,
      gross_amount: order.gross_amount,
      currency: order.currency,
      payment_type: order.payment_type,
      transaction_status: order.transaction_status,
      fraud_status: 'accept',
      ...(order.refunds.length > 0 && {
        refund_amount: decimal(order.refunds.reduce((sum, refund) => sum + Number(refund.refund_amount), 0)),
        refunds: order.refunds,
      }),
    };
  }
}
