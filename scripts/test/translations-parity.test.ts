// Every user-visible string exists in English and Indonesian, in every app's namespace and in the API's texts.
import fs from 'node:fs';
import path from 'node:path';
import { webApps } from '../../apps';

const repoRoot = path.resolve(__dirname, '../..');

function findPairs(): Array<{ en: string; id: string }> {
  const pairs: Array<{ en: string; id: string }> = [];
  for (const app of ['shared', ...webApps, 'server']) {
    const dir = path.join(repoRoot, app, 'src');
    for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && entry.name.endsWith('.en.json')) {
        const en = path.join(entry.parentPath, entry.name);
        pairs.push({ en, id: en.replace(/\.en\.json$/, '.id.json') });
      }
    }
  }
  return pairs;
}

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keys(child, prefix ? `${prefix}.${key}` : key));
}

function read(file: string): unknown {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** Every text by its key path. */
function texts(value: unknown, prefix = ''): Array<[string, string]> {
  if (typeof value !== 'object' || value === null) return [[prefix, String(value)]];
  return Object.entries(value).flatMap(([key, child]) => texts(child, prefix ? `${prefix}.${key}` : key));
}

/** The i18next placeholders a text fills in (`{{name}}`, `{{count}}`), each once, sorted. */
function placeholders(text: string): string[] {
  return [...new Set([...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((match) => match[1] as string))].sort();
}

describe('translations', () => {
  const pairs = findPairs();

  it('finds a namespace in every app and the server', () => {
    expect(pairs.length).toBeGreaterThanOrEqual(7);
  });

  it.each(pairs.map((pair) => [path.relative(repoRoot, pair.en), pair] as const))(
    '%s has the same keys in Indonesian',
    (_name, pair) => {
      expect(fs.existsSync(pair.id)).toBe(true);
      expect(keys(read(pair.id)).sort()).toEqual(keys(read(pair.en)).sort());
    },
  );

  it.each(pairs.map((pair) => [path.relative(repoRoot, pair.en), pair] as const))(
    '%s fills in the same placeholders in Indonesian, text by text',
    (_name, pair) => {
      const indonesian = new Map(texts(read(pair.id)));
      const differing = texts(read(pair.en))
        .filter(([key, english]) => placeholders(english).join() !== placeholders(indonesian.get(key) ?? '').join())
        .map(([key, english]) => `${key}: ${placeholders(english)} ≠ ${placeholders(indonesian.get(key) ?? '')}`);
      expect(differing).toEqual([]);
    },
  );

  it.each(pairs.map((pair) => [path.relative(repoRoot, pair.id), pair] as const))(
    '%s has no empty text',
    (_name, pair) => {
      const flat = (value: unknown): unknown[] =>
        typeof value === 'object' && value !== null ? Object.values(value).flatMap(flat) : [value];
      for (const text of flat(read(pair.id))) expect(String(text).trim()).not.toBe('');
    },
  );
});
