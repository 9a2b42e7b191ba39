// The runtime configuration read and checked without zod: the recipient's pages, opened from an SMS on any phone,
// load this instead of the app's schema (runtime-config.ts), which adds zod's ~5 KB (brotli) to them. A test holds
// the two checks to the same verdicts (runtime-config-check.test.ts).
import type { ApiData } from '../api/api-types';
import { isEnvelope } from '../api/envelope';

/** GET /runtime-config.json (the type runtime-config.ts names RuntimeConfig). */
type RuntimeConfig = ApiData<'/runtime-config.json', 'get'>;

/** A string field of the configuration: any string, or one that must not be empty. */
type FieldRule = 'string' | 'non-empty string';
interface FieldTree {
  readonly [key: string]: FieldRule | FieldTree;
}
/** Every field of T, each with its rule: a field the API adds and this list lacks fails the type check. */
type FieldsOf<T> = { readonly [K in keyof T]-?: T[K] extends string ? FieldRule : FieldsOf<T[K]> };

const runtimeConfigFields: FieldsOf<RuntimeConfig> = {
  apiBaseUrl: 'string',
  appId: 'non-empty string',
  remotes: {
    search: 'non-empty string',
    dashboard: 'non-empty string',
    billing: 'non-empty string',
    share: 'non-empty string',
    operator: 'non-empty string',
  },
  map: { tileUrl: 'non-empty string', tileAttribution: 'non-empty string' },
};

class InvalidRuntimeConfig extends Error {
  constructor(problem: string) {
    super(`Runtime configuration is invalid: ${problem}`);
  }
}

/** The fields listed, checked; any other field is left out (as zod's object does). */
function checked(value: unknown, fields: FieldTree, path: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidRuntimeConfig(`${path || 'the configuration'} must be an object`);
  }
  const result: Record<string, unknown> = {};
  for (const [key, rule] of Object.entries(fields)) {
    const field: unknown = (value as Record<string, unknown>)[key];
    const at = path ? `${path}.${key}` : key;
    if (typeof rule === 'object') result[key] = checked(field, rule, at);
    else if (typeof field === 'string' && (rule === 'string' || field !== '')) result[key] = field;
    else throw new InvalidRuntimeConfig(`${at} must be a ${rule}`);
  }
  return result;
}

/** The configuration's fields, or an error that names the first wrong one. */
export function checkRuntimeConfig(data: unknown): RuntimeConfig {
  return checked(data, runtimeConfigFields, '') as RuntimeConfig;
}

/** The data of the server's answer (inside its envelope), not checked yet. */
export async function fetchRuntimeConfigData(url = '/runtime-config.json'): Promise<unknown> {
  const response = await fetch(url, { cache: 'no-cache', headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`Runtime configuration unavailable (HTTP ${response.status})`);
  const body: unknown = await response.json();
  return isEnvelope(body) ? body.data : body;
}
