import { describeEachDatabase } from '../../support/databases';
import { buildTestApp, type TestApp } from '../../support/test-app';

describeEachDatabase('GET /api/v1/numbers/lookup', (driver) => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await buildTestApp(driver);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const lookup = (query: string) => testApp.app.inject({ method: 'GET', url: `/api/v1/numbers/lookup?${query}` });

  it('gives the numbering-plan facts of an Indonesian mobile number', async () => {
    const response = await lookup(`number=${encodeURIComponent('+62 812-3456-7890')}&locale=id`);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual({
      e164: '+6281234567890',
      valid: true,
      countryCode: 'ID',
      countryName: 'Indonesia',
      // Mobile ranges have no geographic region in the data: unknown, not invented.
      region: null,
      carrier: 'Telkomsel',
      timeZones: ['Asia/Jakarta'],
      lineType: 'mobile',
      // Indonesia is where Kabari sends SMS by default (SMS_COUNTRIES).
      smsAllowed: true,
    });
  });

  it('reads a national number with its country, and names the region of a US number', async () => {
    const response = await lookup('number=(415)%20555-2671&country=us');
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual({
      e164: '+14155552671',
      valid: true,
      countryCode: 'US',
      countryName: 'United States',
      region: 'San Francisco, CA',
      carrier: null,
      timeZones: ['America/Los_Angeles'],
      lineType: 'fixed_line_or_mobile',
      smsAllowed: false,
      smsRefusal: 'Kabari sends SMS only to numbers in Indonesia. Ask this person by email or with a link instead.',
    });
  });

  it('names the country in Indonesian when asked', async () => {
    const response = await lookup(`number=${encodeURIComponent('+14155552671')}&locale=id`);
    expect(response.json().data.countryName).toBe('Amerika Serikat');
  });

  it('says a number that parses but is not valid is not valid, without facts', async () => {
    const response = await lookup(`number=${encodeURIComponent('+62 12')}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      message: 'Please enter a valid mobile number',
      data: { valid: false, carrier: null, region: null, timeZones: null, lineType: null },
    });
  });

  it('asks for a number when there is none, and for a valid one when it is not a number', async () => {
    for (const query of ['', 'number=', 'number=%20%20']) {
      const response = await lookup(query);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('Please enter a number');
    }
    const response = await lookup('number=call-me');
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Please enter a valid mobile number');
  });
});
