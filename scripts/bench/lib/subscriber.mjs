// A signed-in visitor for routes behind the guard (/dashboard): a real subscriber signed up through
// the API by the e2e suite's own helper (e2e/support/subscriber.ts), so the bench and the tests share
// one sign-up. That helper is TypeScript: it is compiled here with swc (already used by every build)
// into bench/reports/ as CommonJS, where its imports resolve from the repository's node_modules (and
// jsencrypt loads its CommonJS build, as under Playwright).
import fsp from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * @param {string} repoRoot
 * @param {string} outDir a folder inside the repository
 * @returns {Promise<{ signUpSubscriber: (baseURL: string) => Promise<{ token: string, user: { userCacheInfo: { displayName: string, email: string } } }> }>}
 */
export async function loadSubscriberHelper(repoRoot, outDir) {
  const { transformFile } = await import('@swc/core');
  const source = path.join(repoRoot, 'e2e/support/subscriber.ts');
  const { code } = await transformFile(source, {
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
    sourceMaps: false,
  });
  await fsp.mkdir(outDir, { recursive: true });
  const compiled = path.join(outDir, 'subscriber.compiled.cjs');
  await fsp.writeFile(compiled, code);
  return createRequire(import.meta.url)(compiled);
}

/**
 * Signs a browser context in the way the app sees it (as e2e/support/app-helpers.ts does): the
 * `token` cookie and the cached user in localStorage.
 * @param {import('playwright-core').BrowserContext} context
 * @param {string} baseURL
 * @param {{ token: string, user: { userCacheInfo: unknown } }} subscriber
 */
export async function signIn(context, baseURL, subscriber) {
  await context.addCookies([{ name: 'token', value: subscriber.token, url: baseURL }]);
  await context.addInitScript((cached) => {
    localStorage.setItem('kabari-user', JSON.stringify({ state: { user: { userCacheInfo: cached } }, version: 0 }));
  }, subscriber.user.userCacheInfo);
}
