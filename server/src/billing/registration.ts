import { randomUUID } from 'node:crypto';
import type { AuthServices } from '../auth/auth-services';
import { hashPassword, passwordProblem } from '../auth/passwords';
import { countAttempt, throttleKey, type ThrottleRule } from '../auth/throttle';
import { findUserByEmail } from '../auth/users';
import { issueAuthCode } from '../auth/verification-codes';
import type { PaymentProvider, RegistrationState } from '../db/column-values';
import type { Database } from '../db/open-database';
import { isUniqueViolation } from '../db/unique-violation';
import { HttpError } from '../lib/envelope';
import type { Logger } from '../lib/logger';
import { sayCommon, type Locale } from '../lib/messages';
import { throwWhenLimited } from '../lib/throttle-answer';
import type { MessageOutbox } from '../messages/message-outbox';
import type { CardInput } from '../payments/card-checks';
import { authorizeSandboxPayment, type SandboxMethod } from '../payments/sandbox-processor';
import type { Billing } from './billing-services';
import { failureText, sayBilling as say } from './billing-messages';
import { refuseSuspendedEmail } from '../safety-desk/suspension-checks';
import { openPaypalOrder } from './paypal-orders';
import {
  findRegistration,
  findRegistrationByAttempt,
  insertRegistration,
  type RegistrationRow,
} from './registration-rows';
import {
  bookFirstDay,
  claimAuthCodeHandout,
  firstDayKey,
  recordPendingFirstDay,
  type FirstChargeAnswer,
} from './sign-ups';
import { findLocalPayment } from './local-payment-rows';
import {
  checkLocalPayment,
  localPaymentView,
  startLocalPayment,
  type LocalPaymentDeps,
  type LocalPaymentView,
} from './local-payments';
import type { LocalChannel } from '../db/column-values';
import { findSubscription } from './subscription-rows';

// Sign-up with payment: the account is made only once the first day is paid (sign-ups.ts books it). Each way to pay
// checks the account first, stores the attempt, asks its processor, and books the answer.

/** What the sign-up rules use of the server: the database, the outbox, the secrets, billing, the log. */
export interface SignUpDeps {
  db: Database;
  outbox: MessageOutbox;
  auth: Pick<AuthServices, 'secrets' | 'passwordCipher'>;
  billing: Pick<Billing, 'config' | 'clock' | 'methodsFor' | 'stripe' | 'paypal' | 'midtrans' | 'refundOwedNow'>;
  log: Logger;
  /** Multiplies every throttle limit (raised for test runs that sign up many accounts from one address). */
  throttleScale: number;
}

/**
 * The current terms of use: their "last updated" date (remote-search/src/i18n/search-terms.*.json). Recorded with
 * each sign-up's consent when the app does not say which terms it showed.
 */
const CURRENT_TERMS_VERSION = '2026-11-22';

const SIGN_UPS_PER_IP: ThrottleRule = { limit: 60, windowSeconds: 60 * 60 };

/** The account fields every way to pay sends alike (the route's schema has checked them, and both consents). */
interface SignUpForm {
  email: string;
  displayName: string;
  phone?: string | undefined;
  locale: Locale;
  password?: string | undefined;
  termsVersion?: string;
  attemptId?: string | undefined;
}

/** Sign-up with the sandbox processor: the method, and for a card its details (checked, used once, never kept). */
export interface SandboxSignUp extends SignUpForm {
  method: SandboxMethod;
  card?: CardInput | undefined;
}

/** Sign-up with Stripe: the PaymentMethod Elements or the payment request made (no card data reaches the server). */
export interface StripeSignUp extends SignUpForm {
  method: 'card' | 'wallet';
  paymentMethodId: string;
}

/** Sign-up with PayPal: first without `capture` (the order is made), then with it and the order the buyer approved. */
export interface PaypalSignUp extends SignUpForm {
  method: 'paypal';
  registerId?: string | undefined;
  orderId?: string | undefined;
  capture?: boolean | undefined;
}

/** Sign-up with QRIS, an e-wallet or a bank's virtual account (Midtrans, or the sandbox): the channel chosen. */
export interface LocalSignUp extends SignUpForm {
  channel: LocalChannel;
}

/** Stripe's answer to a sign-up: with requiresAction, the client secret the page completes 3-D Secure with. */
export interface StripeSignUpAnswer {
  registerId: string;
  requiresAction: boolean;
  clientSecret?: string;
}

/** How a sign-up stands, as the register result screen reads it. */
export interface SignUpState {
  state: RegistrationState;
  failureCode?: string;
  failureMessage?: string;
  authCode?: string;
  /** While a local payment waits: what its page shows (the visitor may have closed it and come back). */
  payment?: LocalPaymentView;
}

/** Every sign-up first: throttled per address, the email free and not suspended, the password checked and hashed. */
async function prepareAccount(deps: SignUpDeps, ip: string, form: SignUpForm): Promise<string | null> {
  const rule = { ...SIGN_UPS_PER_IP, limit: SIGN_UPS_PER_IP.limit * deps.throttleScale };
  const limit = await countAttempt(deps.db, throttleKey(deps.auth.secrets.hmacSecret, 'register:ip', ip), rule);
  throwWhenLimited(limit, say, 'signUpsFromNetwork');
  if (await findUserByEmail(deps.db, form.email)) throw new HttpError(409, sayCommon('emailInUse'));
  // An email a standing suspension holds opens no new account (its account erased or not).
  await refuseSuspendedEmail(deps.db, deps.auth.secrets.hmacSecret, form.email);
  if (!form.password) return null;
  const password = deps.auth.passwordCipher.decrypt(form.password);
  const problem = passwordProblem(password);
  if (problem) throw new HttpError(400, problem);
  return hashPassword(password);
}

/** The sign-up attempt's row: the account fields and the consent given in the form, when it was given. */
function registrationRow(
  id: string,
  form: SignUpForm,
  provider: PaymentProvider,
  passwordHash: string | null,
  now: Date,
) {
  return {
    id,
    email: form.email,
    displayName: form.displayName,
    phone: form.phone ?? null,
    locale: form.locale,
    provider,
    passwordHash,
    // The schema refuses a body without both confirmations, so they were given with this request.
    ageConfirmedAt: now,
    termsAcceptedAt: now,
    termsVersion: form.termsVersion ?? CURRENT_TERMS_VERSION,
    attemptId: form.attemptId ?? null,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * The sign-up an earlier submission of the same form made (its answer was lost, or it was sent twice at once): that
 * attempt is answered again, and nothing is charged a second time. The same attempt id with another email or
 * provider is refused (409): the page makes a new id for every new try.
 */
async function earlierSubmission(
  deps: SignUpDeps,
  form: SignUpForm,
  provider: PaymentProvider,
): Promise<RegistrationRow | null> {
  if (!form.attemptId) return null;
  const earlier = await findRegistrationByAttempt(deps.db, form.attemptId);
  if (!earlier) return null;
  if (earlier.email !== form.email || earlier.provider !== provider) {
    throw new HttpError(409, say('signUpAttemptDiffers'));
  }
  return earlier;
}

/** Runs `store`, which writes the attempt's row; when a submission of the same form wrote it first, its row. */
async function storeOnce(
  deps: SignUpDeps,
  form: SignUpForm,
  provider: PaymentProvider,
  store: () => Promise<void>,
): Promise<RegistrationRow | null> {
  try {
    await store();
    return null;
  } catch (error) {
    const earlier = form.attemptId && isUniqueViolation(error) ? await earlierSubmission(deps, form, provider) : null;
    if (!earlier) throw error;
    return earlier;
  }
}

/**
 * Books a processor's answer to the first charge. The email taken while the sign-up paid: bookFirstDay recorded
 * the charge as owed back in its own transaction; it is given back now if the provider answers (else the sign-up
 * reconciliation retries it), and the visitor is told the email is in use either way (409); a provider's error
 * never reaches them.
 */
async function bookAnswer(
  deps: SignUpDeps,
  registrationId: string,
  provider: PaymentProvider,
  answer: FirstChargeAnswer,
  now: Date,
  storeFirst?: ReturnType<typeof registrationRow>,
): Promise<void> {
  const result = await deps.db.transaction(async (tx) => {
    if (storeFirst) await insertRegistration(tx, storeFirst);
    return bookFirstDay(
      tx,
      { registrationId, provider, answer },
      { billing: deps.billing.config, outbox: deps.outbox, now },
    );
  });
  if (result && !result.completed && result.reason === 'email_in_use') {
    await deps.billing
      .refundOwedNow(firstDayKey(registrationId))
      .catch((error: unknown) =>
        deps.log.error(
          { message: (error as Error).message },
          'A refund owed was not tried now; the reconciliation will',
        ),
      );
    throw new HttpError(409, sayCommon('emailInUse'));
  }
  deps.outbox.kick();
}

/** The methods offered with the price of the sign-up's language. */
const methodsOf = (deps: SignUpDeps, locale: Locale) =>
  deps.billing.methodsFor(deps.billing.config.prices[locale].currency);

/** Sign-up paid with the sandbox processor: a card with a bad format is refused (400) before anything is stored. */
export async function signUpWithSandbox(deps: SignUpDeps, ip: string, form: SandboxSignUp): Promise<string> {
  if (methodsOf(deps, form.locale)[form.method] !== 'sandbox') throw new HttpError(400, say('methodUnavailable'));
  const earlier = await earlierSubmission(deps, form, 'sandbox');
  if (earlier) return earlier.id;
  const passwordHash = await prepareAccount(deps, ip, form);
  const now = deps.billing.clock.now();
  const registrationId = randomUUID();
  const authorization = authorizeSandboxPayment({
    method: form.method,
    card: form.card,
    idempotencyKey: firstDayKey(registrationId),
    locale: form.locale,
    now,
  });
  const answer = {
    outcome: authorization.outcome,
    method: form.method,
    customerRef: null,
    paymentMethodRef: authorization.paymentMethodRef,
  };
  // The row and the answer in one transaction: a submission of the same form that wrote first wins, alone.
  const raced = await storeOnce(deps, form, 'sandbox', () =>
    bookAnswer(
      deps,
      registrationId,
      'sandbox',
      answer,
      now,
      registrationRow(registrationId, form, 'sandbox', passwordHash, now),
    ),
  );
  return raced?.id ?? registrationId;
}

/** Sign-up paid with Stripe (a PaymentMethod from Elements or the payment request); 3-D Secure may follow. */
export async function signUpWithStripe(deps: SignUpDeps, ip: string, form: StripeSignUp): Promise<StripeSignUpAnswer> {
  const { stripe } = deps.billing;
  if (!stripe || methodsOf(deps, form.locale)[form.method] !== 'stripe')
    throw new HttpError(400, say('methodUnavailable'));
  const earlier = await earlierSubmission(deps, form, 'stripe');
  if (earlier) return stripeAttemptAgain(stripe, earlier);
  const passwordHash = await prepareAccount(deps, ip, form);
  const now = deps.billing.clock.now();
  const registrationId = randomUUID();
  const price = deps.billing.config.prices[form.locale];
  const raced = await storeOnce(deps, form, 'stripe', () =>
    insertRegistration(deps.db, registrationRow(registrationId, form, 'stripe', passwordHash, now)),
  );
  if (raced) return stripeAttemptAgain(stripe, raced);
  const charge = await stripe.chargeFirst({
    idempotencyKey: firstDayKey(registrationId),
    registrationId,
    email: form.email,
    name: form.displayName,
    amount: price.firstDayAmount,
    currency: price.currency,
    paymentMethodId: form.paymentMethodId,
  });
  const { outcome, customerRef, paymentMethodRef } = charge;
  await bookAnswer(
    deps,
    registrationId,
    'stripe',
    { outcome, method: form.method, customerRef, paymentMethodRef },
    now,
  );
  return {
    registerId: registrationId,
    requiresAction: charge.requiresAction,
    ...(charge.clientSecret ? { clientSecret: charge.clientSecret } : {}),
  };
}

/**
 * A Stripe sign-up submitted again: its first charge is not asked for again (the page's new PaymentMethod would be
 * a second charge). A payment still waiting for 3-D Secure gives the page its client secret again; otherwise the
 * page polls registerQuery for how it ended.
 */
async function stripeAttemptAgain(
  stripe: NonNullable<SignUpDeps['billing']['stripe']>,
  earlier: RegistrationRow,
): Promise<StripeSignUpAnswer> {
  if (earlier.state === 'querying' && earlier.providerRef) {
    const intent = await stripe.retrieveIntent(earlier.providerRef);
    if (intent.status === 'requires_action' && intent.client_secret) {
      return { registerId: earlier.id, requiresAction: true, clientSecret: intent.client_secret };
    }
  }
  return { registerId: earlier.id, requiresAction: false };
}

/**
 * Sign-up paid with PayPal. Without `capture`: checks the account, stores the attempt and opens a PayPal order for
 * the first-day amount. With it: captures the order the visitor approved (once: a retried approval answers the
 * same, and registerQuery tells how it ended).
 */
export async function signUpWithPaypal(
  deps: SignUpDeps,
  ip: string,
  form: PaypalSignUp,
): Promise<{ registerId: string; orderId: string }> {
  const { paypal } = deps.billing;
  if (!paypal || methodsOf(deps, form.locale).paypal !== 'paypal') throw new HttpError(400, say('methodUnavailable'));
  const now = deps.billing.clock.now();

  if (!form.capture) {
    // PayPal makes one order per request id (`order:<registerId>`): asking again for an attempt answers its order.
    const openOrder = async (registrationId: string) => {
      const price = deps.billing.config.prices[form.locale];
      const orderId = await openPaypalOrder(
        { db: deps.db, paypal, log: deps.log },
        {
          registrationId,
          paymentKey: firstDayKey(registrationId),
          amount: price.firstDayAmount,
          currency: price.currency,
          locale: form.locale,
          description: 'Kabari subscription, first day',
          now,
        },
      );
      return { registerId: registrationId, orderId };
    };
    const againFor = (earlier: RegistrationRow) => {
      if (earlier.providerRef) return { registerId: earlier.id, orderId: earlier.providerRef };
      // No order, and the attempt has ended: PayPal did not make one the first time.
      if (earlier.state !== 'querying') throw new HttpError(502, say('paypalUnavailable'));
      return openOrder(earlier.id);
    };
    const earlier = await earlierSubmission(deps, form, 'paypal');
    if (earlier) return againFor(earlier);
    const passwordHash = await prepareAccount(deps, ip, form);
    const registrationId = randomUUID();
    const raced = await storeOnce(deps, form, 'paypal', () =>
      insertRegistration(deps.db, registrationRow(registrationId, form, 'paypal', passwordHash, now)),
    );
    return raced ? againFor(raced) : openOrder(registrationId);
  }

  if (!form.registerId || !form.orderId) throw new HttpError(400, say('paypalOrderMissing'));
  const { registerId, orderId } = form;
  const registration = await findRegistration(deps.db, registerId);
  // The order must be the one made for this sign-up, by the same visitor (their email).
  if (
    !registration ||
    registration.provider !== 'paypal' ||
    registration.providerRef !== orderId ||
    registration.email !== form.email
  ) {
    throw new HttpError(404, say('signUpNotFound'));
  }
  if (registration.state !== 'querying') return { registerId, orderId };
  const capture = await paypal.captureOrder(orderId, `capture:${registerId}`);
  const { outcome, customerRef, paymentMethodRef } = capture;
  await bookAnswer(deps, registerId, 'paypal', { outcome, method: 'paypal', customerRef, paymentMethodRef }, now);
  return { registerId, orderId };
}

/** What the local payment rules use of the sign-up's dependencies. */
export function localDeps(deps: Pick<SignUpDeps, 'db' | 'outbox' | 'billing' | 'log'>): LocalPaymentDeps {
  return {
    db: deps.db,
    outbox: deps.outbox,
    config: deps.billing.config,
    midtrans: deps.billing.midtrans,
    log: deps.log,
  };
}

/**
 * Sign-up paid with QRIS, an e-wallet or a bank's virtual account (a price in rupiah; Midtrans, or the sandbox in a
 * trial): checks the account, stores the attempt, asks the gateway for the payment and answers what the page shows
 * while it waits. The same form sent again answers the same payment; registerQuery tells how it ended.
 */
export async function signUpWithLocal(
  deps: SignUpDeps,
  ip: string,
  form: LocalSignUp,
): Promise<{ registerId: string; payment: LocalPaymentView }> {
  const provider = methodsOf(deps, form.locale).local;
  if (!provider) throw new HttpError(400, say('methodUnavailable'));
  const again = async (earlier: RegistrationRow) => {
    const row = await findLocalPayment(deps.db, earlier.id);
    // No payment stored: the gateway failed the first time, and the attempt ended then.
    if (!row) throw new HttpError(502, say('localPaymentUnavailable'));
    return { registerId: earlier.id, payment: localPaymentView(row, deps.billing.config) };
  };
  const earlier = await earlierSubmission(deps, form, provider);
  if (earlier) return again(earlier);
  const passwordHash = await prepareAccount(deps, ip, form);
  const now = deps.billing.clock.now();
  const registrationId = randomUUID();
  const raced = await storeOnce(deps, form, provider, () =>
    insertRegistration(deps.db, registrationRow(registrationId, form, provider, passwordHash, now)),
  );
  if (raced) return again(raced);
  const price = deps.billing.config.prices[form.locale];
  const payment = await startLocalPayment(localDeps(deps), {
    registrationId,
    provider,
    channel: form.channel,
    amount: price.firstDayAmount,
    currency: price.currency,
    description: 'Kabari subscription, first day',
    now,
    recordPending: (tx, providerRef) =>
      recordPendingFirstDay(tx, { registrationId, provider, providerRef, price, now }),
  });
  return { registerId: registrationId, payment };
}

/**
 * The state of a sign-up, as the register result screen polls it, with a failure in the reader's language
 * (`readerLocale`, given the sign-up's own). The auth code comes with the first answer that says created (within 30
 * minutes of the sign-up) and never again.
 */
export async function signUpResult(
  deps: Pick<SignUpDeps, 'db' | 'auth' | 'billing' | 'outbox' | 'log'>,
  registrationId: string,
  readerLocale: (own: Locale) => Locale,
): Promise<SignUpState> {
  let registration = await findRegistration(deps.db, registrationId);
  if (!registration) throw new HttpError(404, say('signUpNotFound'));
  if (
    registration.state === 'querying' &&
    (registration.provider === 'midtrans' || registration.provider === 'sandbox')
  ) {
    const local = await findLocalPayment(deps.db, registration.id);
    const now = deps.billing.clock.now();
    if (local && now.getTime() < local.expiresAt.getTime()) {
      return { state: 'querying', payment: localPaymentView(local, deps.billing.config) };
    }
    // Past its expiry: asked about once more (paid in the last moment counts), else it ends as expired.
    if (local && (await checkLocalPayment(localDeps(deps), registration, now)) !== 'waiting') {
      registration = (await findRegistration(deps.db, registrationId))!;
    }
  }
  const { state } = registration;
  if (state === 'sign_failed' || state === 'unknown' || state === 'unsubscribed') {
    return {
      state,
      ...(registration.failureCode ? { failureCode: registration.failureCode } : {}),
      // Ours in the reader's language for a known code; the provider's own text only as a fallback.
      ...(registration.failureCode || registration.failureMessage
        ? {
            failureMessage: failureText(
              registration.failureCode,
              readerLocale(registration.locale),
              registration.failureMessage,
            ),
          }
        : {}),
    };
  }
  if (state !== 'created') return { state };
  if (registration.userId) {
    const subscription = await findSubscription(deps.db, registration.userId);
    if (subscription?.status === 'unsubscribed') return { state: 'unsubscribed' as const };
  }
  const now = deps.billing.clock.now();
  const authCode = await deps.db.transaction(async (tx) => {
    const email = await claimAuthCodeHandout(tx, registration.id, now);
    return email ? issueAuthCode(tx, deps.auth.secrets.hmacSecret, email) : null;
  });
  return { state, ...(authCode ? { authCode } : {}) };
}
