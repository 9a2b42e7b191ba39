import { createHash } from 'node:crypto';
import { messagesOf, type Locale } from '../lib/messages';
import { HttpError } from '../lib/envelope';
import { checkCard, sayCardProblem, type CardInput, type CardProblem } from './card-checks';
import type { ChargeOutcome, PaymentProcessor, SavedChargeRequest } from './processor';

/**
 * The built-in sandbox processor: no money moves. It answers like a card processor in test mode, with
 * Stripe's public test card numbers, so the whole sign-up works on a fresh machine. Real card numbers are
 * refused: this is a sandbox and says so.
 */

export type SandboxMethod = 'card' | 'wallet' | 'paypal';

type TestCardBehaviour = 'succeeds' | 'declined' | 'insufficient_funds' | 'renewals_declined';

// https://docs.stripe.com/testing: the numbers anyone may use in test mode.
const TEST_CARDS: Record<string, TestCardBehaviour> = {
  '4242424242424242': 'succeeds',
  '4000056655665556': 'succeeds',
  '5555555555554444': 'succeeds',
  '2223003122003222': 'succeeds',
  '5200828282828210': 'succeeds',
  '378282246310005': 'succeeds',
  '371449635398431': 'succeeds',
  '6011111111111117': 'succeeds',
  '4000000000000002': 'declined',
  '4000000000009995': 'insufficient_funds',
  // Stripe: "attaches to a customer, but charges fail": the first-day charge works here, every renewal fails.
  '4000000000000341': 'renewals_declined',
};

const sayDecline = messagesOf('cardDecline');

/** The sandbox's decline reasons come from the catalogue of decline reasons (both languages). */
function sandboxFailure(code: 'card_declined' | 'insufficient_funds' | 'not_a_test_card', locale: Locale): string {
  return sayDecline(code)[locale];
}

export interface SandboxAuthorization {
  outcome: ChargeOutcome;
  /** What renewals charge: never the card number; the brand, last four and the test card's behaviour. */
  paymentMethodRef: string | null;
}

function sandboxRef(idempotencyKey: string): string {
  return `sandbox_ch_${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 24)}`;
}

/** A card-format problem: 400 before anything is stored, answered in the visitor's language. */
export class CardFormatError extends HttpError {
  constructor(readonly problem: CardProblem) {
    super(400, sayCardProblem(problem));
    this.name = 'CardFormatError';
  }
}

/**
 * The first charge with the details the visitor typed (or the sandbox wallet / sandbox PayPal, which always
 * approve). The same idempotency key gives the same answer.
 */
export function authorizeSandboxPayment(input: {
  method: SandboxMethod;
  card: CardInput | undefined;
  idempotencyKey: string;
  locale: Locale;
  now: Date;
}): SandboxAuthorization {
  const providerRef = sandboxRef(input.idempotencyKey);
  if (input.method !== 'card') {
    return {
      outcome: { outcome: 'succeeded', providerRef, cardBrand: null, cardLast4: null },
      paymentMethodRef: `sandbox:${input.method}:succeeds`,
    };
  }
  if (!input.card) throw new CardFormatError('number');
  const checked = checkCard(input.card, input.now);
  if (!checked.ok) throw new CardFormatError(checked.problem);
  const { brand, last4, digits } = checked.card;
  const behaviour = TEST_CARDS[digits];
  if (!behaviour) {
    return {
      outcome: {
        outcome: 'failed',
        providerRef,
        failureCode: 'not_a_test_card',
        failureMessage: sandboxFailure('not_a_test_card', input.locale),
      },
      paymentMethodRef: null,
    };
  }
  if (behaviour === 'declined' || behaviour === 'insufficient_funds') {
    const failureCode = behaviour === 'declined' ? 'card_declined' : 'insufficient_funds';
    return {
      outcome: {
        outcome: 'failed',
        providerRef,
        failureCode,
        failureMessage: sandboxFailure(failureCode, input.locale),
      },
      paymentMethodRef: null,
    };
  }
  return {
    outcome: { outcome: 'succeeded', providerRef, cardBrand: brand, cardLast4: last4 },
    paymentMethodRef: `sandbox:card:${behaviour}:${brand}:${last4}`,
  };
}

/**
 * The sandbox after a first payment: a renewal's outcome is the saved method's test behaviour; a refund and
 * forgetting a customer have nothing to do at a provider (no money moved, nothing is kept anywhere but here).
 */
export const sandboxProcessor: PaymentProcessor = {
  provider: 'sandbox',
  async refund() {},
  async forgetSavedCustomer() {},
  async chargeSaved(request: SavedChargeRequest): Promise<ChargeOutcome> {
    const [, method, behaviour, brand, last4] = request.paymentMethodRef.split(':');
    const providerRef = sandboxRef(request.idempotencyKey);
    if (behaviour === 'renewals_declined') {
      return {
        outcome: 'failed',
        providerRef,
        failureCode: 'card_declined',
        failureMessage: sandboxFailure('card_declined', request.locale),
      };
    }
    return {
      outcome: 'succeeded',
      providerRef,
      cardBrand: method === 'card' ? (brand ?? null) : null,
      cardLast4: method === 'card' ? (last4 ?? null) : null,
    };
  },
};
