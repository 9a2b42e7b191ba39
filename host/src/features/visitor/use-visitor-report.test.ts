import { startVisitorReport } from './use-visitor-report';
import { fbVisitorCookieName } from './visitor-id';

jest.mock('../../lib/host-api-header-source', () => ({
  hostApiHeaderSource: {
    token: () => null,
    runtimeConfig: async () => ({ apiBaseUrl: '', appId: 'kabari-web' }),
    locale: () => 'en',
  },
}));

function clearCookies() {
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; max-age=0; path=/`;
  }
}

/** What the app does once per page load, on a page opened at `path`. */
async function openPage(path: string) {
  window.history.replaceState(null, '', path);
  startVisitorReport();
}

describe('the visitor report on page load', () => {
  const fetchMock = jest.fn(async () => ({ ok: true, status: 200 }));

  beforeEach(() => {
    clearCookies();
    localStorage.clear();
    fetchMock.mockClear();
    global.fetch = fetchMock as unknown as typeof fetch;
    jest.useFakeTimers();
  });

  afterEach(() => {
    jest.useRealTimers();
    window.history.replaceState(null, '', '/');
  });

  it.each(['/enter-link?token=abc', '/id/enter-link/?token=abc', '/share?token=abc', '/id/location-failed?t=abc'])(
    'on a recipient’s page (%s) sets no visitor id and sends no report',
    async (path) => {
      await openPage(path);
      await jest.advanceTimersByTimeAsync(10_000);
      await jest.advanceTimersByTimeAsync(10_000);
      expect(document.cookie).not.toContain(fbVisitorCookieName);
      expect(fetchMock).not.toHaveBeenCalled();
    },
  );

  it('on a public page sets the visitor id and sends the report once idle', async () => {
    await openPage('/faqs?source=sms');
    expect(document.cookie).toContain(fbVisitorCookieName);
    await jest.advanceTimersByTimeAsync(10_000);
    await jest.advanceTimersByTimeAsync(10_000);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const body = JSON.parse((fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1].body as string);
    expect(body).toMatchObject({ pageUrl: 'http://localhost/faqs', source: 'sms' });
  });
});
