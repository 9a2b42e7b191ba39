import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { queryRows } from '../../src/db/open-database';
import { operators } from '../../src/db/schema/operators';
import { startOperatorSession } from '../../src/operators/operator-sessions';
import { OPERATOR_COOKIE } from '../../src/plugins/operator-guard';
import { createRequester, type TestRequester } from '../support/subscriber-fixture';
import { tableDigests } from '../support/table-digests';
import { buildTestApp, type TestApp } from '../support/test-app';
import { startFakeTwilio, type FakeTwilio } from '../support/fake-twilio';

/**
 * Every route the OpenAPI document lists, sent random, boundary and malformed input (fast-check): path parameters,
 * query strings, bodies (any JSON, deep nesting, long text, bytes that are not UTF-8, the wrong content type) and
 * headers, signed in or not. Whatever arrives, the app answers without a 5xx, in its envelope, and a refused request
 * changes nothing that is stored. A failure prints the seed and the smallest input that shows it.
 */
/** Tries per route: 12 in `npm test`; FUZZ_RUNS_PER_ROUTE=200 for a long run. */
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS_PER_ROUTE ?? 12);
// What a refused request may change: the throttles count attempts, refused ones too, since that is what stops a
// guesser.
// An operator's session notes each request, refused ones too (its idle deadline moves on).
const THROTTLE_TABLES = ['auth_throttles', 'operator_sessions'];

/** The live stream answers signed-in callers with a stream that does not end: it is tried signed out only. */
const STREAM = 'GET /api/v1/locate/events';
// The account export's success is the document itself, as a download, not the envelope.
const RAW_SUCCESS = 'GET /api/v1/personnal/account/export';

interface FuzzRequest {
  params: string[];
  query: Record<string, string>;
  body: { kind: 'json'; value: unknown } | { kind: 'bytes'; value: Uint8Array; type: string } | { kind: 'none' };
  headers: Record<string, string>;
  signedIn: boolean;
}

/** Text a person or an attacker might send: ordinary, empty, long, odd Unicode, markup, paths and numbers. */
const nastyText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('', ' ', '0', '-1', '1e309', 'null', 'true', '../../etc/passwd', '%00', '<script>', '\u202e'),
  fc.string({ minLength: 3000, maxLength: 5000 }),
);

/** JSON nested deeper than any schema of ours. */
const deepJson = fc.integer({ min: 50, max: 2000 }).map((depth) => {
  let value: unknown = 'deep';
  for (let level = 0; level < depth; level += 1) value = level % 2 ? [value] : { value };
  return value;
});

const fuzzRequest = (paramCount: number, queryNames: string[], bodyNames: string[]): fc.Arbitrary<FuzzRequest> =>
  fc.record({
    params: fc.array(nastyText, { minLength: paramCount, maxLength: paramCount }),
    query: fc.dictionary(fc.oneof(fc.constantFrom(...queryNames, 'x'), fc.string({ maxLength: 8 })), nastyText, {
      maxKeys: 4,
    }),
    body: fc.oneof(
      fc.record({ kind: fc.constant('json' as const), value: fc.jsonValue({ maxDepth: 4 }) }),
      fc.record({
        kind: fc.constant('json' as const),
        value: fc.dictionary(fc.constantFrom(...bodyNames, 'x'), fc.oneof(nastyText, fc.jsonValue({ maxDepth: 2 }))),
      }),
      fc.record({ kind: fc.constant('json' as const), value: deepJson }),
      fc.record({
        kind: fc.constant('bytes' as const),
        // Bytes that are not UTF-8, or not JSON, under a JSON or another content type.
        value: fc.oneof(fc.constant(new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])), fc.uint8Array()),
        type: fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'image/png'),
      }),
      fc.constant({ kind: 'none' as const }),
    ),
    headers: fc.dictionary(
      fc.constantFrom('accept-language', 'x-request-id', 'x-forwarded-for', 'cookie', 'last-event-id', 'origin'),
      fc.string({ maxLength: 60 }).filter((value) => /^[\t\x20-\x7e]*$/.test(value)),
      { maxKeys: 3 },
    ),
    signedIn: fc.boolean(),
  });

describe('every route under random and malformed input', () => {
  let testApp: TestApp;
  let twilio: FakeTwilio;
  let subscriber: TestRequester;
  let routes: { method: string; path: string; queryNames: string[]; bodyNames: string[] }[];
  let address = 0;
  let operatorCookie = '';
  let operatorMayHaveLeft = false;

  /** The console's routes are fuzzed signed in as an operator (from Kabari's own origin), not as a subscriber. */
  async function signInOperator(): Promise<void> {
    const [operator] = await testApp.app.db
      .insert(operators)
      .values({ email: `fuzz-${Date.now()}-${Math.random()}@example.com`, enrolledAt: new Date() })
      .returning();
    operatorCookie = `${OPERATOR_COOKIE}=${(await startOperatorSession(testApp.app.db, operator!)).token}`;
  }

  beforeAll(async () => {
    // Twilio configured (a local fake of it, no network), so that its status callback route is tried past "not
    // configured".
    twilio = await startFakeTwilio({
      accountSid: `AC${'0'.repeat(32)}`,
      authToken: 'fuzz-auth-token',
      publicUrl: 'https://kabari.example',
      forwardTo: () => 'http://127.0.0.1:9',
      inboundPath: '/api/v1/webhooks/twilio/inbound',
      ourNumber: '+15005550006',
    });
    testApp = await buildTestApp(
      'pglite',
      {
        RENEWAL_INTERVAL_SECONDS: '0',
        TWILIO_ACCOUNT_SID: `AC${'0'.repeat(32)}`,
        TWILIO_AUTH_TOKEN: 'fuzz-auth-token',
        TWILIO_FROM: '+15005550006',
      },
      { build: { twilioApiBaseUrl: twilio.baseUrl } },
    );
    subscriber = await createRequester(testApp.app);
    await signInOperator();
    const document = testApp.app.swagger() as {
      paths: Record<
        string,
        Record<
          string,
          {
            parameters?: { in: string; name: string }[];
            requestBody?: { content?: Record<string, { schema?: { properties?: object } }> };
          }
        >
      >;
    };
    routes = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        method: method.toUpperCase(),
        path,
        queryNames: (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        bodyNames: Object.keys(operation.requestBody?.content?.['application/json']?.schema?.properties ?? {}),
      })),
    );
  });

  afterAll(async () => {
    await testApp?.close();
    await twilio?.close();
  });

  /**
   * The tables read again only when something may have written since the last reading: a transaction that writes
   * takes the next transaction id, and reading takes none. Reading every table around each of the requests was
   * most of this test's time, while most refusals write nothing.
   */
  let lastDigest: { nextTransactionId: string; rows: string } | undefined;
  async function storedRows(): Promise<string> {
    const [row] = await queryRows<{ next: string }>(
      testApp.app.db,
      sql`select pg_snapshot_xmax(pg_current_snapshot())::text as next`,
    );
    const nextTransactionId = row?.next ?? '';
    if (lastDigest?.nextTransactionId !== nextTransactionId) {
      lastDigest = { nextTransactionId, rows: await tableDigests(testApp.app.db, THROTTLE_TABLES) };
    }
    return lastDigest.rows;
  }

  it('lists the routes it tries', () => {
    expect(routes.length).toBeGreaterThan(40);
  });

  it(
    'never answers 5xx, always in the envelope, and changes nothing when it refuses',
    async () => {
      let tried = 0;
      let renewedSubscribers = 0;
      // A fuzzed success may end the test subscriber's session (a logout, a deleted account, a new password): the
      // next signed-in request then gets a subscriber of its own, so signed-in fuzzing stays signed in.
      let sessionMayHaveEnded = false;
      const sessionWorks = async () =>
        (
          await testApp.app.inject({
            method: 'GET',
            url: '/api/v1/auth/session',
            headers: { authorization: subscriber.token },
          })
        ).statusCode === 200;
      for (const route of routes) {
        const paramCount = (route.path.match(/\{\w+\}/g) ?? []).length;
        await fc.assert(
          fc.asyncProperty(fuzzRequest(paramCount, route.queryNames, route.bodyNames), async (request) => {
            let index = 0;
            const url = route.path.replace(/\{\w+\}/g, () => encodeURIComponent(request.params[index++] ?? ''));
            if (request.signedIn && sessionMayHaveEnded) {
              if (!(await sessionWorks())) {
                subscriber = await createRequester(testApp.app);
                renewedSubscribers += 1;
              }
              sessionMayHaveEnded = false;
            }
            const headers: Record<string, string> = { ...request.headers };
            if (request.signedIn && route.path.startsWith('/api/v1/operator/')) {
              // A fuzzed success may have signed the operator out: then another operator signs in.
              if (operatorMayHaveLeft) await signInOperator();
              operatorMayHaveLeft = false;
              headers.cookie = operatorCookie;
              headers.origin ??= 'http://localhost:8080';
            } else if (request.signedIn && `${route.method} ${route.path}` !== STREAM) {
              headers.authorization = subscriber.token;
            }
            let payload: string | Buffer | undefined;
            if (route.method !== 'GET' && route.method !== 'DELETE' && request.body.kind !== 'none') {
              if (request.body.kind === 'json') {
                payload = JSON.stringify(request.body.value);
                headers['content-type'] = 'application/json';
              } else {
                payload = Buffer.from(request.body.value);
                headers['content-type'] = request.body.type;
              }
            }
            address += 1;
            const before = await storedRows();
            const response = await testApp.app.inject({
              method: route.method as 'GET',
              url,
              query: request.query,
              headers,
              payload,
              remoteAddress: `10.77.${(address >> 8) & 255}.${address & 255}`,
            });
            tried += 1;
            const where = `${route.method} ${url}`;
            expect([where, response.statusCode < 500]).toEqual([where, true]);
            const raw = `${route.method} ${route.path}` === RAW_SUCCESS && response.statusCode < 300;
            if (route.path.startsWith('/api/') && !raw) {
              expect([where, response.json()]).toEqual([
                where,
                expect.objectContaining({ status: response.statusCode, message: expect.any(String) }),
              ]);
            }
            if (response.statusCode >= 400) expect([where, await storedRows()]).toEqual([where, before]);
            else if (route.method !== 'GET' && route.path.startsWith('/api/v1/operator/')) operatorMayHaveLeft = true;
            else if (route.method !== 'GET') sessionMayHaveEnded = true;
          }),
          { numRuns: RUNS_PER_ROUTE },
        );
      }
      expect(tried).toBe(routes.length * RUNS_PER_ROUTE);
      console.info(
        `${tried} requests: ${routes.length} routes × ${RUNS_PER_ROUTE}; ` +
          `a new subscriber ${renewedSubscribers} times after a success ended the session`,
      );
    },
    60_000 + RUNS_PER_ROUTE * 5_000,
  );
});
