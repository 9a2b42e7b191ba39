// Signs a subscriber up through the real API, as the browser does: the password RSA-encrypted with jsencrypt
// under GET /api/v1/auth/publicKey, registerAndSign with the sandbox processor (test card 4242…), the
// register result polled until it settles, then login by the one-time auth code. Every e2e spec that needs a
// signed-in subscriber starts here instead of clicking through the sign-up (billing's own spec proves that).
import { randomBytes } from 'node:crypto';
import * as jsencryptModule from 'jsencrypt';
import type { Envelope } from '../../shared/src/api/envelope';

type JSEncryptInstance = { setPublicKey(pem: string): void; encrypt(text: string): string | false };
const jsencryptExports = jsencryptModule as unknown as {
  default?: new () => JSEncryptInstance;
  JSEncrypt?: new () => JSEncryptInstance;
};
// Node loads jsencrypt's CommonJS build, whose module is the class itself.
const JSEncrypt = (jsencryptExports.default ??
  jsencryptExports.JSEncrypt ??
  jsencryptModule) as new () => JSEncryptInstance;

export interface UserCacheInfo {
  id: string;
  email: string;
  displayName: string;
  phone: string | null;
  locale: 'en' | 'id';
  createdAt: string;
}

export interface Subscriber {
  email: string;
  password: string;
  token: string;
  user: { userCacheInfo: UserCacheInfo };
  displayName: string;
}

export interface SignUpOptions {
  email?: string;
  password?: string;
  displayName?: string;
  locale?: 'en' | 'id';
  phone?: string;
  /** A sandbox test card (default 4242 4242 4242 4242). */
  cardNumber?: string;
  /** Sent with every call, e.g. an X-Forwarded-For of its own for each of many sign-ups (the soak loop). */
  headers?: Record<string, string>;
}

/** One API call: its envelope's data, or an error naming the route and the server's message. */
export async function call<T>(
  baseURL: string,
  path: string,
  init: RequestInit = {},
  headers: Record<string, string> = {},
): Promise<T> {
  const response = await fetch(new URL(path, baseURL), {
    ...init,
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
  });
  const body = (await response.json().catch(() => null)) as Envelope<T> | null;
  if (!response.ok || !body) {
    throw new Error(`${init.method ?? 'GET'} ${path} answered ${response.status}: ${body?.message ?? 'no JSON body'}`);
  }
  return body.data;
}

export function encryptPassword(publicKeyPem: string, password: string): string {
  const encryptor = new JSEncrypt();
  encryptor.setPublicKey(publicKeyPem);
  const ciphertext = encryptor.encrypt(password);
  if (!ciphertext) throw new Error('jsencrypt could not encrypt the password');
  return ciphertext;
}

let counter = 0;

/** A new subscriber (trial, paid with the sandbox test card), signed in: its session token and cached user. */
export async function signUpSubscriber(baseURL: string, options: SignUpOptions = {}): Promise<Subscriber> {
  counter += 1;
  const email = options.email ?? `e2e-${Date.now()}-${counter}-${randomBytes(3).toString('hex')}@example.com`;
  const password = options.password ?? `pw-${randomBytes(6).toString('hex')}`;
  const displayName = options.displayName ?? 'Rina E2E';
  // From an address of its own unless told (a server that believes X-Forwarded-For from this machine, as the shared
  // one does, then counts each sign-up apart, as it would different visitors; others ignore the header).
  const headers = options.headers ?? { 'x-forwarded-for': `10.255.${counter % 256}.${1 + (process.pid % 254)}` };
  const { publicKey } = await call<{ publicKey: string }>(baseURL, '/api/v1/auth/publicKey', {}, headers);
  const nextYear = String(new Date().getUTCFullYear() + 2);
  const { registerId } = await call<{ registerId: string }>(
    baseURL,
    '/api/v1/auth/registerAndSign/v5pay',
    {
      method: 'POST',
      body: JSON.stringify({
        email,
        displayName,
        ...(options.phone ? { phone: options.phone } : {}),
        locale: options.locale ?? 'en',
        ageConfirmed: true,
        termsAccepted: true,
        password: encryptPassword(publicKey, password),
        method: 'card',
        card: {
          name: 'Rina',
          surname: 'E2E',
          number: options.cardNumber ?? '4242 4242 4242 4242',
          expiryMonth: '12',
          expiryYear: nextYear,
          cvv: '123',
        },
      }),
    },
    headers,
  );

  return settleAndSignIn(baseURL, { email, password, displayName, registerId }, headers);
}

/** Once the sign-up's payment is made: its register result polled until it settles, then login by the auth code. */
async function settleAndSignIn(
  baseURL: string,
  account: { email: string; password: string; displayName: string; registerId: string },
  headers: Record<string, string>,
): Promise<Subscriber> {
  const { email, password, displayName, registerId } = account;
  // The sandbox settles at once; real providers may take a moment: poll like the register result screen.
  const deadline = Date.now() + 15_000;
  let state: { state: string; authCode?: string; failureMessage?: string };
  for (;;) {
    state = await call(baseURL, `/api/v1/personnal/registerQuery/${registerId}`, {}, headers);
    if (state.state !== 'querying' || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  if (state.state !== 'created' || !state.authCode) {
    throw new Error(`sign-up of ${email} ended in ${state.state}: ${state.failureMessage ?? 'no auth code'}`);
  }
  const signedIn = await fetch(new URL('/api/v1/auth/loginByAuthCode', baseURL), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify({ authCode: state.authCode }),
  });
  const login = (await signedIn.json()) as Envelope<{ user: { userCacheInfo: UserCacheInfo } }>;
  if (!signedIn.ok) throw new Error(`loginByAuthCode answered ${signedIn.status}: ${login.message}`);
  return { email, password, token: sessionTokenOf(signedIn), user: login.data.user, displayName };
}

/**
 * A new subscriber who paid their first day with QRIS, an e-wallet or a bank transfer in the local trial (the sandbox
 * takes the rupiah price's local payments), signed in: registerAndSign/local, then the sandbox's simulated payment
 * (what "Simulate payment" on the waiting page does). Such a subscription renews only when its owner pays. No
 * password: this sign-up sets none (the subscriber signs in by email code or the session given here).
 */
export async function signUpLocalSubscriber(
  baseURL: string,
  options: Pick<SignUpOptions, 'email' | 'displayName' | 'locale' | 'headers' | 'password'> & { channel?: string } = {},
): Promise<Subscriber> {
  counter += 1;
  const email = options.email ?? `e2e-local-${Date.now()}-${counter}-${randomBytes(3).toString('hex')}@example.com`;
  const displayName = options.displayName ?? 'Rina E2E';
  const headers = options.headers ?? { 'x-forwarded-for': `10.254.${counter % 256}.${1 + (process.pid % 254)}` };
  // A password only when asked for (to sign in through the login dialog): the local sign-up can go without one.
  const password = options.password
    ? encryptPassword(
        (await call<{ publicKey: string }>(baseURL, '/api/v1/auth/publicKey', {}, headers)).publicKey,
        options.password,
      )
    : undefined;
  const { registerId } = await call<{ registerId: string }>(
    baseURL,
    '/api/v1/auth/registerAndSign/local',
    {
      method: 'POST',
      body: JSON.stringify({
        email,
        displayName,
        locale: options.locale ?? 'id',
        ageConfirmed: true,
        termsAccepted: true,
        channel: options.channel ?? 'qris',
        ...(password ? { password } : {}),
      }),
    },
    headers,
  );
  await call(baseURL, `/api/v1/personnal/sandboxPayments/${registerId}/pay`, { method: 'POST', body: '{}' }, headers);
  return settleAndSignIn(baseURL, { email, password: options.password ?? '', displayName, registerId }, headers);
}

/**
 * The session token a sign-in answer set as the HttpOnly `token` cookie (the body does not carry it). Scripts here
 * are not a browser: they send it back as the cookie or the Authorization header.
 */
export function sessionTokenOf(response: Response): string {
  for (const cookie of response.headers.getSetCookie()) {
    const match = /^token=([^;]+)/.exec(cookie);
    if (match?.[1]) return decodeURIComponent(match[1]);
  }
  throw new Error('the sign-in answer set no session cookie');
}
