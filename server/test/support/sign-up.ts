import type { FastifyInstance } from 'fastify';
import { encryptPassword } from './jsencrypt';
import { sessionTokenOf } from './session-token';

let counter = 0;
/** A fresh address per call, so per-IP throttles of one test never touch another. */
export function freshIp(): string {
  counter += 1;
  return `10.6.${Math.floor(counter / 250)}.${(counter % 250) + 1}`;
}

export function freshEmail(prefix = 'subscriber'): string {
  counter += 1;
  return `${prefix}${counter}.${Date.now()}@example.com`;
}

export const TEST_CARD = {
  name: 'Rina',
  surname: 'Wijaya',
  number: '4242 4242 4242 4242',
  expiryMonth: '12',
  expiryYear: String(new Date().getUTCFullYear() + 10),
  cvv: '123',
};

export interface SignUpOptions {
  email?: string;
  password?: string;
  locale?: 'en' | 'id';
  displayName?: string;
  cardNumber?: string;
  method?: 'card' | 'wallet' | 'paypal';
  cvv?: string;
}

/** Signs a subscriber up through the sandbox route, polls the result and signs in by auth code. */
export async function signUpSubscriber(app: FastifyInstance, options: SignUpOptions = {}) {
  const email = options.email ?? freshEmail();
  const publicKey = (await app.inject({ method: 'GET', url: '/api/v1/auth/publicKey' })).json().data.publicKey;
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/registerAndSign/v5pay',
    remoteAddress: freshIp(),
    payload: {
      email,
      displayName: options.displayName ?? 'Rina',
      locale: options.locale ?? 'en',
      ageConfirmed: true,
      termsAccepted: true,
      ...(options.password ? { password: encryptPassword(publicKey, options.password) } : {}),
      method: options.method ?? 'card',
      card: { ...TEST_CARD, number: options.cardNumber ?? TEST_CARD.number, cvv: options.cvv ?? TEST_CARD.cvv },
    },
  });
  if (response.statusCode !== 200) throw new Error(`sign-up failed: ${response.body}`);
  const registerId: string = response.json().data.registerId;
  const query = (await app.inject({ method: 'GET', url: `/api/v1/personnal/registerQuery/${registerId}` })).json();
  if (query.data.state !== 'created') return { email, registerId, query, token: undefined };
  const login = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/loginByAuthCode',
    remoteAddress: freshIp(),
    payload: { authCode: query.data.authCode },
  });
  const token: string = sessionTokenOf(login);
  return { email, registerId, query, token, user: login.json().data.user };
}

/**
 * Signs a subscriber up with QRIS at the rupiah price through the local sandbox, pays it with the sandbox's simulated
 * payment (standing in for Midtrans's notification) and signs in by auth code.
 */
export async function signUpWithQris(app: FastifyInstance, email = freshEmail()) {
  const signUp = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/registerAndSign/local',
    remoteAddress: freshIp(),
    payload: { email, displayName: 'Rina', locale: 'id', ageConfirmed: true, termsAccepted: true, channel: 'qris' },
  });
  if (signUp.statusCode !== 200) throw new Error(`sign-up failed: ${signUp.body}`);
  const registerId: string = signUp.json().data.registerId;
  await app.inject({ method: 'POST', url: `/api/v1/personnal/sandboxPayments/${registerId}/pay` });
  const query = await app.inject({ method: 'GET', url: `/api/v1/personnal/registerQuery/${registerId}` });
  const login = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/loginByAuthCode',
    remoteAddress: freshIp(),
    payload: { authCode: query.json().data.authCode },
  });
  return { email, token: sessionTokenOf(login) };
}
