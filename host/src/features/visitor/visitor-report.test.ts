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

describe('visitor device report', () => {
  it('describes the device with ua-parser-js, and reads the source from the query', () => {
    const report = buildVisitorReport({
      visitorId: 'v-1',
      userAgent: iphone,
      pageUrl: 'https://kabari.test/id/faqs?token=x&source=sms#how',
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
      // The page, never its query string or fragment: a link's token must not travel with the report.
      pageUrl: 'https://kabari.test/id/faqs',
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
      referrer: 'https://search.example/results/for/budi?q=budi+santoso#top',
      now: new Date(),
    });
    expect(report).toEqual(
      expect.objectContaining({
        deviceType: 'desktop',
        browserName: 'Chrome',
        source: null,
        // The referring site only: another site's path and query may say who the visitor is.
        referrerUrl: 'https://search.example/',
      }),
    );
  });

  it('keeps the source only when it is a short marker', () => {
    const withSource = (source: string) =>
      buildVisitorReport({
        visitorId: 'v-3',
        userAgent: desktopChrome,
        pageUrl: `https://kabari.test/?source=${encodeURIComponent(source)}`,
        referrer: '',
        now: new Date(),
      }).source;
    expect(withSource('newsletter-2026_11')).toBe('newsletter-2026_11');
    expect(withSource('budi santoso +628123')).toBeNull();
    expect(withSource('x'.repeat(65))).toBeNull();
  });
});

describe('sending the report', () => {
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

  it('sends nothing while the visitor is on a recipient’s page, and leaves the flag unset', async () => {
    for (const path of ['/enter-link?token=abc', '/id/share/?token=abc', '/location-failed?t=abc&reason=denied']) {
      window.history.replaceState(null, '', path);
      const fetchMock = jest.fn(async () => ({ ok: true, status: 200 }));
      await reportVisitor('v-1', fetchMock as unknown as typeof fetch, 'https://kabari.test/faqs');
      expect(fetchMock).not.toHaveBeenCalled();
      expect(visitorAlreadyReported('v-1')).toBe(false);
    }
    window.history.replaceState(null, '', '/');
  });

  it('reports the page the visit began on, without its query string', async () => {
    window.history.replaceState(null, '', '/faqs');
    const fetchMock = jest.fn(async () => ({ ok: true, status: 200 }));
    await reportVisitor('v-2', fetchMock as unknown as typeof fetch, 'http://localhost/id/?source=sms&code=123456');
    const body = JSON.parse((fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1].body as string);
    expect(body).toMatchObject({ pageUrl: 'http://localhost/id/', source: 'sms' });
    expect(JSON.stringify(body)).not.toContain('123456');
    window.history.replaceState(null, '', '/');
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
