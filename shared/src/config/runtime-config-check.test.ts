import { fetchRuntimeConfig, type RuntimeConfig } from './runtime-config';
import { checkRuntimeConfig, fetchRuntimeConfigData } from './runtime-config-check';

// Typed as the API's configuration: a field the API adds must be added here, and both checks are then tried on it.
const valid: RuntimeConfig = {
  apiBaseUrl: '',
  appId: 'kabari-web',
  remotes: {
    search: '/remotes/search/mf-manifest.json',
    dashboard: '/remotes/dashboard/mf-manifest.json',
    billing: 'https://cdn.example.test/billing/mf-manifest.json',
    share: '/remotes/share/mf-manifest.json',
    operator: '/remotes/operator/mf-manifest.json',
  },
  map: {
    tileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
    tileAttribution: '&copy; OpenStreetMap contributors',
  },
};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Each configuration that differs from `value` at one place: a field left out, or given another value. */
function variants(value: Json, path: string[] = []): Array<{ path: string; config: Json }> {
  const wrongValues: Json[] = [null, 0, 1, true, '', ' ', 'x', [], ['x'], {}, { x: 'x' }];
  const here = wrongValues.map((wrong) => ({ path: path.join('.') || '(root)', config: wrong }));
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return here;
  const record = value;
  const inside = Object.entries(record).flatMap(([key, field]) => {
    const { [key]: _left, ...without } = record;
    return [
      { path: [...path, key].join('.'), config: without },
      ...variants(field, [...path, key]).map((variant) => ({
        path: variant.path,
        config: { ...record, [key]: variant.config },
      })),
    ];
  });
  return [...here, ...inside, { path: `${path.join('.')}+extra`, config: { ...record, extra: 'x' } }];
}

/** What the app's zod schema makes of `config`: the configuration, or 'refused'. */
async function zodVerdict(config: Json): Promise<unknown> {
  global.fetch = jest
    .fn()
    .mockResolvedValue({ ok: true, status: 200, json: async () => ({ status: 200, message: 'ok', data: config }) });
  return fetchRuntimeConfig().catch((error: unknown) => {
    expect(String(error)).toMatch(/Runtime configuration is invalid/);
    return 'refused';
  });
}

function lightVerdict(config: Json): unknown {
  try {
    return checkRuntimeConfig(config);
  } catch (error) {
    expect(String(error)).toMatch(/Runtime configuration is invalid/);
    return 'refused';
  }
}

describe('checkRuntimeConfig (without zod)', () => {
  it('returns a valid configuration as it is', () => {
    expect(checkRuntimeConfig(valid)).toEqual(valid);
  });

  it('names the first wrong field', () => {
    expect(() => checkRuntimeConfig({ ...valid, remotes: { ...valid.remotes, share: '' } })).toThrow(
      'Runtime configuration is invalid: remotes.share must be a non-empty string',
    );
    expect(() => checkRuntimeConfig({ ...valid, map: undefined })).toThrow(
      'Runtime configuration is invalid: map must be an object',
    );
    expect(() => checkRuntimeConfig({ ...valid, apiBaseUrl: 1 })).toThrow(
      'Runtime configuration is invalid: apiBaseUrl must be a string',
    );
    expect(() => checkRuntimeConfig([])).toThrow(
      'Runtime configuration is invalid: the configuration must be an object',
    );
  });

  it('gives the verdict of the app’s zod schema on every configuration one change from a valid one', async () => {
    const cases = [{ path: 'valid', config: valid as Json }, ...variants(valid as Json)];
    const refusedByBoth: string[] = [];
    for (const { path, config } of cases) {
      const light = lightVerdict(config);
      expect({ path, verdict: light }).toEqual({ path, verdict: await zodVerdict(config) });
      if (light === 'refused') refusedByBoth.push(path);
    }
    // Every field is required by both (so each was tried), and the valid configuration passes both.
    const fields = Object.entries(valid).flatMap(([key, field]) =>
      typeof field === 'string' ? [key] : Object.keys(field).map((inner) => `${key}.${inner}`),
    );
    expect(refusedByBoth).toEqual(expect.arrayContaining(fields));
    expect(refusedByBoth).not.toContain('valid');
  });
});

describe('fetchRuntimeConfigData', () => {
  it('reads the data from the envelope', async () => {
    global.fetch = jest
      .fn()
      .mockResolvedValue({ ok: true, status: 200, json: async () => ({ status: 200, message: 'ok', data: valid }) });
    await expect(fetchRuntimeConfigData()).resolves.toEqual(valid);
    expect(global.fetch).toHaveBeenCalledWith('/runtime-config.json', expect.objectContaining({ cache: 'no-cache' }));
  });

  it('rejects an HTTP error', async () => {
    global.fetch = jest.fn().mockResolvedValue({ ok: false, status: 503, json: async () => ({}) });
    await expect(fetchRuntimeConfigData()).rejects.toThrow('Runtime configuration unavailable (HTTP 503)');
  });
});
