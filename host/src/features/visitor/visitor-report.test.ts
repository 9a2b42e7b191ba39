import { buildVisitorReport, reportVisitor } from './visitor-report';
import { visitorAlreadyReported } from './visitor-report-flag';

jest.mock('../../lib/host-api-header-source', () => ({
  hostApiHeaderSource: {
    runtimeConfig: async () => ({ apiBaseUrl: '', appId: 'kabari-web' }),
    locale: () => 'en',
  },
}));

const iphone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const desktopChrome =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

describe('visitor device report (spec §3)', () => {
  it('describes the device with ua-parser-js, and reads the source from the query', () => {
    const report = buildVisitorReport({
      visitorId: 'v-1',
      userAgent: iphone,
      pageUrl: 'https://kabari.test/id/enter-link?token=x&source=sms',
      referrer: '',
      now: new Date('2026-11-22T10:00:00Z'),
    });
    expect(report).toEqual({
      visitorId: 'v-1',
      userAgent: iphone,
      osName: 'iOS',
      osVersion: '17.4',
      browserName: 'Mobile Safari',
      browserVersion: '17.4',
      deviceType: 'mobile',
      deviceBrand: 'Apple',
      deviceModel: 'iPhone',
      pageUrl: 'https://kabari.test/id/enter-link?token=x&source=sms',
      referrerUrl: null,
      source: 'sms',
      visitTime: '2026-11-22T10:00:00.000Z',
    });
  });

  it('counts anything that is not a phone or a tablet as a desktop', () => {
    const report = buildVisitorReport({
      visitorId: 'v-2',
      userAgent: desktopChrome,
      pageUrl: 'https://kabari.test/',
      referrer: 'https://search.example/',
      now: new Date(),
    });
    expect(report).toEqual(
      expect.objectContaining({
        deviceType: 'desktop',
        browserName: 'Chrome',
        source: null,
        referrerUrl: 'https://search.example/',
      }),
    );
  });
});

describe('sending the report (spec §7, §8)', () => {
  beforeEach(() => localStorage.clear());

  it('posts it with the API headers and sets the flag only after success', async () => {
    const fetchMock = jest.fn(async () => ({ ok: true, status: 200 }));
    await reportVisitor('v-1', fetchMock as unknown as typeof fetch);
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/v1/locate/userAgent',
      expect.objectContaining({
        method: 'POST',
        headers: expect.objectContaining({ 'application-id': 'kabari-web', 'content-type': 'application/json' }),
      }),
    );
    const body = JSON.parse((fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1].body as string);
    expect(body.visitorId).toBe('v-1');
    expect(visitorAlreadyReported('v-1')).toBe(true);
    expect(visitorAlreadyReported('another-visitor')).toBe(false);
  });

  it('only logs a failure, leaving the flag unset so the next visit tries again', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    await reportVisitor('v-1', jest.fn(async () => ({ ok: false, status: 503 })) as unknown as typeof fetch);
    await reportVisitor(
      'v-1',
      jest.fn(async () => Promise.reject(new TypeError('offline'))) as unknown as typeof fetch,
    );
    expect(warn).toHaveBeenCalledTimes(2);
    expect(visitorAlreadyReported('v-1')).toBe(false);
  });
});
