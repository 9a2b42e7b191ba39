import fs from 'node:fs';
import path from 'node:path';
import { storedItems } from './cookie-notice';

// The cookie notice says it lists everything Kabari keeps in the browser. This reads the browser code of every
// workspace and finds each cookie and storage key it writes, and the server's code for the cookies it sets (the
// session cookie, which no script may touch), so that a new one cannot go unlisted.

const repositoryRoot = path.resolve(__dirname, '../../../..');
const sourceRoots = fs
  .readdirSync(repositoryRoot)
  .filter((name) => name === 'host' || name === 'shared' || name.startsWith('remote-'))
  .map((name) => path.join(repositoryRoot, name, 'src'))
  .filter((dir) => fs.existsSync(dir));

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.(test|spec)\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

// Writes to the browser: storage, cookies (document.cookie or a stand-in jar), zustand's persisted stores.
const WRITES_STORAGE = /\b(?:sessionStorage|localStorage|storage)\.setItem\(|\.cookie\s*=[^=]|createJSONStorage\(/;
// A key's constant (…Key, …key, …CookieName, or a function building one), or a persisted store's name.
const KEY_CONSTANT = /const\s+(\w*(?:Key|key|CookieName))\s*=\s*(?:\([^)]*\)\s*=>\s*)?(['`])([^'`]+)\2/g;
const PERSIST_NAME = /\bname:\s*'([^']+)'/g;
// A literal key handed straight to setItem.
const LITERAL_SET_ITEM = /\.setItem\(\s*'([^']+)'/g;

/** Every key the browser code writes, `${anything unresolved}` shown as `<anything>`. */
function keysInCode(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of sourceRoots.flatMap(sourceFiles)) {
    const text = fs.readFileSync(file, 'utf8');
    if (!WRITES_STORAGE.test(text)) continue;
    const constants = new Map<string, string>();
    const raw: string[] = [];
    for (const [, name = '', , value = ''] of text.matchAll(KEY_CONSTANT)) {
      constants.set(name, value);
      raw.push(value);
    }
    if (/createJSONStorage\(|persist\(/.test(text)) {
      for (const [, value = ''] of text.matchAll(PERSIST_NAME)) raw.push(value);
    }
    for (const [, value = ''] of text.matchAll(LITERAL_SET_ITEM)) raw.push(value);
    for (const value of raw) {
      const resolved = value.replace(/\$\{(\w+)\}/g, (_whole, name: string) => constants.get(name) ?? `<${name}>`);
      found.set(resolved, path.relative(repositoryRoot, file));
    }
  }
  return found;
}

// A cookie the server sets: `reply.setCookie(NAME, …)` with NAME a string constant of the same file.
const SERVER_SET_COOKIE = /\.setCookie\(\s*(\w+)\s*,/g;

function serverFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return serverFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Every cookie the server sets, with the file that sets it; a name's constant may come from another server file. */
function cookiesSetByServer(): Map<string, string> {
  const files = serverFiles(path.join(repositoryRoot, 'server/src')).map((file) => ({
    file,
    text: fs.readFileSync(file, 'utf8'),
  }));
  const constantIn = (name: string, text: string) => new RegExp(`const\\s+${name}\\s*=\\s*'([^']+)'`).exec(text)?.[1];
  const found = new Map<string, string>();
  for (const { file, text } of files) {
    for (const [, name = ''] of text.matchAll(SERVER_SET_COOKIE)) {
      const value =
        constantIn(name, text) ??
        (new RegExp(`import\\s*\\{[^}]*\\b${name}\\b`).test(text)
          ? files.map((other) => constantIn(name, other.text)).find(Boolean)
          : undefined);
      found.set(value ?? `<${name}>`, path.relative(repositoryRoot, file));
    }
  }
  return found;
}

describe('the cookie notice lists everything the code keeps in the browser', () => {
  const inCode = new Map([...keysInCode(), ...cookiesSetByServer()]);
  const listed = new Set(storedItems.map((item) => item.name));

  it('finds the keys it is meant to find (the search itself works)', () => {
    for (const known of [
      'token',
      'locale',
      'G_P_L_Visitor_Id',
      'FB_G_P_L_Visitor_Id',
      'kabari-user',
      'kabari-visitor-reported',
      'kabari-reloaded-at',
      'kabari-password-pending',
      'kabari-share:<token>',
      'kabari-shared-here',
      'kabari-reporter',
      'kabari-overview',
      'kabari_operator',
    ]) {
      expect(inCode.has(known)).toBe(true);
    }
  });

  it('lists each of them', () => {
    const missing = [...inCode].filter(([key]) => !listed.has(key)).map(([key, file]) => `${key} (${file})`);
    expect(missing).toEqual([]);
  });

  it('lists nothing the code no longer keeps', () => {
    expect([...listed].filter((name) => !inCode.has(name))).toEqual([]);
  });
});
