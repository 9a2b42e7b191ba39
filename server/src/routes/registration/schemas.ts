import { z } from 'zod';
import { LOCAL_CHANNELS } from '../../db/column-values';
import { inputMessage } from '../../lib/messages';
import { displayNameField } from '../../auth/display-name';
import { envelope } from '../../lib/envelope';
import { emailField } from '../auth/schemas';

export const localeBody = z.object({ locale: z.enum(['en', 'id']).default('en') });

const methodsSchema = z.object({
  card: z.enum(['stripe', 'sandbox']).nullable(),
  wallet: z.enum(['stripe', 'sandbox']).nullable(),
  paypal: z.enum(['paypal', 'sandbox']).nullable(),
  local: z
    .enum(['midtrans', 'sandbox'])
    .nullable()
    .describe('QRIS, e-wallets and bank virtual accounts (a price in rupiah only); null: not offered'),
});

export const paidAmountResponse = envelope(
  z.object({
    currencyCode: z.string().describe('ISO 4217'),
    firstDayDebitAmount: z.number().describe("Today's charge, covering the first day (major unit)"),
    amount: z.number().describe('Charged every `period` days from nextDebitDay (major unit)'),
    period: z.number().int().describe('Days per renewal'),
    nextDebitDay: z.string().describe('ISO time of the first renewal if the subscription starts now'),
    methods: methodsSchema.describe('Which processor takes each method; null: not offered'),
    localChannels: z
      .array(z.enum(LOCAL_CHANNELS))
      .describe('The local channels offered, in display order (QRIS first); empty when methods.local is null'),
    sandbox: z.boolean().describe('True when the sandbox processor takes payments: no money moves'),
    paymentsConfigured: z
      .boolean()
      .describe('False when no processor is configured: nothing can be paid, and no card details are asked for'),
    stripePublishableKey: z.string().optional(),
    stripeAmounts: z
      .object({ firstDayDebitAmount: z.number().int(), amount: z.number().int() })
      .optional()
      .describe(
        'firstDayDebitAmount and amount as Stripe counts them (hundredths of most currencies, rupiah included), for ' +
          "the wallet's payment sheet; with stripePublishableKey",
      ),
    paypalClientId: z.string().optional(),
  }),
);

/** The account part of every registerAndSign body (the create-account step). */
export const accountFields = {
  email: emailField,
  displayName: displayNameField.describe(
    "The name recipients of location requests will see: letters, spaces and . , ' -, at most 40 characters, " +
      'no web or email address, at most 4 digits',
  ),
  phone: z
    .string()
    .trim()
    .max(32, inputMessage('billing.phoneTooLong'))
    .regex(/^\+?[\d\s().-]*$/, inputMessage('billing.enterValidPhone'))
    .transform((value) => (value === '' ? undefined : value))
    .optional(),
  locale: z.enum(['en', 'id']).default('en'),
  ageConfirmed: z.literal(true, { message: inputMessage('billing.confirmAge') }),
  termsAccepted: z.literal(true, { message: inputMessage('billing.acceptTerms') }),
  termsVersion: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, inputMessage('billing.termsVersionInvalid'))
    .optional()
    .describe('The terms the person accepted: their "last updated" date as shown. Default: the current terms'),
  attemptId: z
    .string()
    .uuid(inputMessage('billing.attemptIdInvalid'))
    .optional()
    .describe(
      'The sign-up form’s own random id for this submission. Sent again (the first answer was lost), it answers ' +
        'the same sign-up instead of charging again; the same id with another email or provider: 409',
    ),
  password: z
    .string()
    .trim()
    .max(2048, inputMessage('common.passwordTooLong'))
    .optional()
    .describe(
      'Optional: the password encrypted like login (jsencrypt under GET /api/v1/auth/publicKey). Without it the ' +
        'account gets an unguessable password and the user sets one with the reset code.',
    ),
};

export const sandboxCard = z.object({
  name: z.string().trim().max(100),
  surname: z.string().trim().max(100),
  number: z.string().trim().max(32),
  expiryMonth: z.union([z.string().trim().max(2), z.number().int()]),
  expiryYear: z.union([z.string().trim().max(4), z.number().int()]),
  cvv: z.string().trim().max(4),
});

export const paymentFields = {
  method: z.enum(['card', 'wallet', 'paypal']),
  card: sandboxCard
    .optional()
    .describe('Sandbox only: checked and used once, never stored or logged; only brand and last four are kept'),
};

export const sandboxRegistrationBody = z.object({ ...accountFields, ...paymentFields });

export const registerResponse = envelope(z.object({ registerId: z.string().uuid() }));

export const registerQueryParams = z.object({ id: z.string().uuid(inputMessage('billing.signUpNotFound')) });

/** A local channel, as the payment step offers it. */
export const localChannel = z.enum(LOCAL_CHANNELS, { message: inputMessage('billing.localChannelMissing') });

/** What the page shows while a QRIS, e-wallet or virtual account payment waits. */
export const localPaymentSchema = z.object({
  channel: z.enum(LOCAL_CHANNELS),
  amount: z.number().describe('Major unit'),
  currencyCode: z.string(),
  merchantName: z.string().describe('Shown beside the QR code: the name the payer sees in their app'),
  expiresAt: z.string().describe('ISO time the payment stops being payable'),
  qrString: z.string().optional().describe('qris (and gopay when Midtrans gives one): draw it as a QR code'),
  deeplinkUrl: z.string().optional().describe('gopay, shopeepay: opens the e-wallet app on a phone'),
  vaNumber: z.string().optional().describe('bca_va, bni_va, bri_va: the virtual account; mandiri_bill: the bill key'),
  billerCode: z.string().optional().describe('mandiri_bill only'),
});

export const localBody = z.object({ ...accountFields, channel: localChannel });

export const localRegisterResponse = envelope(z.object({ registerId: z.string().uuid(), payment: localPaymentSchema }));

export const registerQueryResponse = envelope(
  z.object({
    state: z.enum(['querying', 'created', 'sign_failed', 'unsubscribed', 'unknown']),
    failureCode: z
      .string()
      .optional()
      .describe(
        'Local payments: payment_expired, payment_cancelled or payment_denied when one ended unpaid; ' +
          'payment_amount_mismatch when it was paid with another amount than asked (the money is owed back)',
      ),
    failureMessage: z.string().optional(),
    authCode: z.string().optional().describe('Only with created, handed out once: POST /api/v1/auth/loginByAuthCode'),
    payment: localPaymentSchema
      .optional()
      .describe('While a QRIS, e-wallet or virtual account payment waits (state querying): what its page shows'),
  }),
);

export const sandboxPaymentParams = z.object({
  id: z.string().uuid(inputMessage('billing.signUpNotFound')).describe('The registerId of the sign-up or renewal'),
});

export const sandboxPaymentResponse = envelope(
  z.object({ state: z.enum(['querying', 'created', 'sign_failed', 'unsubscribed', 'unknown']) }),
);

export const stripeBody = z.object({
  ...accountFields,
  method: z.enum(['card', 'wallet']),
  paymentMethodId: z
    .string({ message: 'paymentMethodId is required' })
    .trim()
    .regex(/^pm_\w+$/, 'paymentMethodId: expected a Stripe PaymentMethod id (pm_…)')
    .describe('From Stripe Elements or the payment request: card data never reaches this server'),
});

export const stripeRegisterResponse = envelope(
  z.object({
    registerId: z.string().uuid(),
    clientSecret: z.string().optional().describe('With requiresAction: pass to stripe.handleNextAction'),
    requiresAction: z.boolean(),
  }),
);

/** PayPal's order id, as its button hands it back. */
export const paypalOrderId = z
  .string()
  .trim()
  .regex(/^[A-Z0-9]{5,64}$/, inputMessage('billing.paypalOrderInvalid'));

export const paypalBody = z.object({
  ...accountFields,
  method: z.literal('paypal'),
  registerId: z
    .string()
    .uuid(inputMessage('billing.signUpNotFound'))
    .optional()
    .describe('With capture: the sign-up the order was made for'),
  orderId: paypalOrderId.optional().describe('With capture: the order the buyer approved in the PayPal button'),
  capture: z.boolean().optional().describe('true: capture the approved order; absent: create the order'),
});

export const paypalRegisterResponse = envelope(
  z.object({
    registerId: z.string().uuid(),
    orderId: z.string().describe("PayPal's order id, for the PayPal button"),
  }),
);
