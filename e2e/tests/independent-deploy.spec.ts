import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from '../support/fixtures';
import { markDocument, pageHydrated, sameDocument, startPublicPageApp } from '../support/app-helpers';
import { freePort, repoRoot, startKabari } from '../support/kabari-server';
import { serveStatic } from '../support/static-server';

function hashDir(dir: string): string {
  const hash = crypto.createHash('sha256');
  for (const entry of fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .sort((a, b) => path.join(a.parentPath, a.name).localeCompare(path.join(b.parentPath, b.name)))) {
    if (entry.isFile()) hash.update(fs.readFileSync(path.join(entry.parentPath, entry.name)));
  }
  return hash.digest('hex');
}

test.describe('remotes are deployed independently', () => {
  test.describe.configure({ timeout: 180_000 });

  test('a remote rebuilt alone, on another origin, is picked up by the unchanged host build', async ({ browser }) => {
    // A separate team's checkout of a remote with a changed text, built on its own. The operator's console: the
    // quickest of the remotes to build, and its sign-in page is open to anyone.
    const work = path.join(repoRoot, '.tmp', `e2e-redeploy-${process.pid}`);
    fs.rmSync(work, { recursive: true, force: true });
    // What its build reads: the remote, the shared package, the rules it shares with the server, the webpack factory
    // and the list of apps.
    for (const dir of ['remote-operator', 'shared', 'rules', 'webpack', 'apps.js']) {
      fs.cpSync(path.join(repoRoot, dir), path.join(work, dir), {
        recursive: true,
        filter: (source) => !/[\\/](dist|node_modules)$/.test(source),
      });
    }
    fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(work, 'node_modules'), 'dir');
    const textFile = path.join(work, 'remote-operator/src/i18n/operator.en.json');
    const texts = JSON.parse(fs.readFileSync(textFile, 'utf8'));
    texts.signIn.title = 'Redeployed without the host: operator sign-in';
    fs.writeFileSync(textFile, JSON.stringify(texts));

    const hostBefore = hashDir(path.join(repoRoot, 'host/dist'));
    execFileSync(
      process.execPath,
      [path.join(repoRoot, 'node_modules/webpack-cli/bin/cli.js'), '--mode', 'production'],
      {
        cwd: path.join(work, 'remote-operator'),
        stdio: 'pipe',
      },
    );

    const cdn = await serveStatic(path.join(work, 'remote-operator/dist'), await freePort());
    const kabari = await startKabari({ REMOTE_OPERATOR_URL: `${cdn.url}/mf-manifest.json` });
    try {
      const page = await browser.newPage();
      await page.goto(`${kabari.url}/operator/sign-in`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Redeployed without the host: operator sign-in');
      await page.close();
      expect(hashDir(path.join(repoRoot, 'host/dist'))).toBe(hostBefore);
    } finally {
      await kabari.stop();
      await cdn.close();
      fs.rmSync(work, { recursive: true, force: true });
    }
  });

  test('with one remote down, its route shows the fallback and the others still work', async ({ browser }) => {
    // remote-share serves a public, prerendered page: its HTML arrives, its remote does not.
    const closedPort = await freePort();
    const kabari = await startKabari({ REMOTE_SHARE_URL: `http://127.0.0.1:${closedPort}/mf-manifest.json` });
    try {
      const page = await browser.newPage();
      page.on('console', () => undefined);
      await page.goto(`${kabari.url}/enter-link?token=abc`);
      // The recipient's page arrives complete from the server (here: its invalid-link alert); the fallback says
      // the rest of it did not load.
      await expect(
        page.getByRole('alert').filter({ hasText: 'This part of Kabari could not be loaded' }),
      ).toBeVisible();
      await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
      // The rest of the site works without it: the layout's link leads home (a recipient's page is a document of
      // its own, so that is a page load), where the app starts and moves between pages on the client.
      await page.getByRole('link', { name: 'Home' }).first().click();
      await expect(page.locator('main [data-remote="search"] h1')).toContainText('with their consent');
      await startPublicPageApp(page);
      // Its links are the app's once the page itself has hydrated (after the layout); before, they load pages.
      await pageHydrated(page);
      await markDocument(page);
      await page.getByRole('link', { name: 'All questions and answers' }).click();
      await expect(page.locator('main [data-remote="search"] h1')).toHaveText('Questions and answers');
      expect(await sameDocument(page), 'moved on the client').toBe(true);

      await page.goto(`${kabari.url}/id/enter-link`);
      await expect(page.getByRole('alert').filter({ hasText: 'Bagian Kabari ini gagal dimuat' })).toBeVisible();
      await page.close();
    } finally {
      await kabari.stop();
    }
  });
});
