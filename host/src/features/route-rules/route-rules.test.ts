import path from 'node:path';
import { applyRouteRules, fetchRouteRules, rulePath, type RouteRules } from './route-rules';

// The build's checker lives beside the host's webpack config (CommonJS).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { checkRouteRules } = require(path.resolve(__dirname, '../../../build-info-plugin.js')) as {
  checkRouteRules: (rules: unknown, file: string) => RouteRules;
};

const rules: RouteRules = {
  '/index.html': { redirect: '/' },
  '/tracking': { redirect: '/tracking-phone-number' },
  '/press': { redirect: 'https://press.example.org/kabari' },
};

const at = (url: string) => new URL(url, 'https://kabari.test');

describe('route rules', () => {
  it('look a path up in its English form, without a trailing slash', () => {
    expect(rulePath('/id/tracking/')).toBe('/tracking');
    expect(rulePath('/id')).toBe('/');
  });

  it('redirect inside the app in the language of the page, keeping the query and hash', () => {
    expect(applyRouteRules(rules, at('/tracking?source=sms#how'))).toEqual({
      kind: 'internal',
      path: '/tracking-phone-number?source=sms#how',
    });
    expect(applyRouteRules(rules, at('/id/tracking/'))).toEqual({
      kind: 'internal',
      path: '/id/tracking-phone-number',
    });
    expect(applyRouteRules(rules, at('/index.html'))).toEqual({ kind: 'internal', path: '/' });
  });

  it('send an external redirect to a full page load', () => {
    expect(applyRouteRules(rules, at('/press'))).toEqual({ kind: 'external', url: 'https://press.example.org/kabari' });
  });

  it('leave every other path alone', () => {
    expect(applyRouteRules(rules, at('/faqs'))).toBeNull();
    expect(applyRouteRules(rules, at('/toString'))).toBeNull();
  });

  it('are read from /route-rules.json; a failed fetch rejects (the caller only logs it)', async () => {
    const ok = jest.fn(async () => ({ ok: true, status: 200, json: async () => ({ rules }) }));
    await expect(fetchRouteRules(ok as unknown as typeof fetch)).resolves.toEqual(rules);
    const down = jest.fn(async () => ({ ok: false, status: 503 }));
    await expect(fetchRouteRules(down as unknown as typeof fetch)).rejects.toThrow('503');
  });
});

describe('the build checks the rules it ships', () => {
  it('accepts the shape above', () => {
    expect(checkRouteRules(rules, 'route-rules.json')).toBe(rules);
  });

  it.each([
    [{ '/id/x': { redirect: '/' } }, 'English path'],
    [{ '/x/': { redirect: '/' } }, 'trailing slash'],
    [{ '/x': { redirect: 'javascript:alert(1)' } }, 'path of the app or an http(s) URL'],
    [{ '/a': { redirect: '/b' }, '/b': { redirect: '/a' } }, 'no chains, no loops'],
  ])('refuses %j', (bad, problem) => {
    expect(() => checkRouteRules(bad, 'route-rules.json')).toThrow(problem);
  });
});
