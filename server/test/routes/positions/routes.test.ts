import { positions } from '../../../src/db/schema/location-requests';
import { describeEachDatabase } from '../../support/databases';
import { linkRequest, signedInRequester } from '../../support/live-fixtures';
import { buildTestApp, type TestApp } from '../../support/test-app';

describeEachDatabase('GET /api/v1/requests/{id}/positions', (driver) => {
  let testApp: TestApp;
  let alice: { userId: string; token: string };
  let bob: { userId: string; token: string };
  let aliceRequest: string;

  beforeAll(async () => {
    testApp = await buildTestApp(driver);
    alice = await signedInRequester(testApp.app.db, 'alice@example.com');
    bob = await signedInRequester(testApp.app.db, 'bob@example.com');
    aliceRequest = await linkRequest(testApp.app.db, alice.userId);
    await testApp.app.db.insert(positions).values([
      {
        requestId: aliceRequest,
        source: 'gps',
        latitude: -6.2,
        longitude: 106.816,
        accuracyMeters: 12,
        address: 'Jakarta, Indonesia',
        recordedAt: new Date('2026-11-22T05:00:10.000Z'),
      },
      {
        requestId: aliceRequest,
        source: 'ip',
        latitude: -6.17,
        longitude: 106.83,
        accuracyMeters: 5000,
        address: 'Jakarta, Indonesia',
        recordedAt: new Date('2026-11-22T05:00:00.000Z'),
      },
    ]);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const get = (id: string, token?: string) =>
    testApp.app.inject({
      method: 'GET',
      url: `/api/v1/requests/${id}/positions`,
      headers: token ? { authorization: token } : {},
    });

  it("gives the owner the request's positions, oldest first", async () => {
    const response = await get(aliceRequest, alice.token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 200,
      message: 'ok',
      data: {
        items: [
          {
            id: expect.any(Number),
            source: 'ip',
            latitude: -6.17,
            longitude: 106.83,
            accuracyMeters: 5000,
            address: 'Jakarta, Indonesia',
            // Stored before places had parts: the English address still reads.
            place: null,
            recordedAt: '2026-11-22T05:00:00.000Z',
          },
          {
            id: expect.any(Number),
            source: 'gps',
            latitude: -6.2,
            longitude: 106.816,
            accuracyMeters: 12,
            address: 'Jakarta, Indonesia',
            place: null,
            recordedAt: '2026-11-22T05:00:10.000Z',
          },
        ],
      },
    });
  });

  it("answers 404 for someone else's request, as for one that does not exist", async () => {
    const other = await get(aliceRequest, bob.token);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ status: 404, message: 'Request not found.', data: null });
    expect(other.body).not.toContain('Jakarta');
    const missing = await get('00000000-0000-4000-8000-000000000000', alice.token);
    expect(missing.statusCode).toBe(404);
  });

  it('answers an empty list for a request with nothing shared yet', async () => {
    const empty = await linkRequest(testApp.app.db, bob.userId);
    const response = await get(empty, bob.token);
    expect(response.json().data).toEqual({ items: [] });
  });

  it('needs a session and a well-formed id', async () => {
    expect((await get(aliceRequest)).statusCode).toBe(401);
    const malformed = await get('not-an-id', alice.token);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toMatch(/^id: /);
    // In the caller's language, as every answer of the requests routes.
    const inIndonesian = await testApp.app.inject({
      method: 'GET',
      url: '/api/v1/requests/not-an-id/positions',
      headers: { authorization: alice.token, 'accept-language': 'id' },
    });
    expect(inIndonesian.json().message).toBe('Permintaan tidak ditemukan.');
  });
});
