// Prerenders an app's pages to HTML at build time, so a page paints before any script arrives.
// A remote writes its pages' fragments (dist/prerender/routes.json): each page's HTML and its head
// (the remote's CSS, and the page's title, description and language alternates when it sets them).
// The host writes its layout around a page slot for each of its routes (dist/prerender/shells/).
// The server stitches the two, and lists the pages marked `sitemap` in /sitemap.xml.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { repoRoot } from './lib/run.mjs';

const require = createRequire(import.meta.url);
const webpack = require('webpack');
const { createPrerenderConfig } = require('../webpack/create-config.js');
const { startOnFirstUse } = require('../webpack/start-after-first-paint-plugin.js');

export const PAGE_MARKER = '<!--kabari-page-->';
const PAGE_SLOT_TEXT = 'KABARI_PAGE_SLOT';

/** File name of a page path: "/" → "index", "/id/enter-link" → "id__enter-link". */
export function pageSlug(pagePath) {
  return pagePath === '/' ? 'index' : pagePath.replace(/^\//, '').replace(/\//g, '__');
}

function compile(config) {
  return new Promise((resolve, reject) => {
    webpack(config, (error, stats) => {
      if (error) return reject(error);
      if (stats.hasErrors()) return reject(new Error(stats.toString('errors-only')));
      resolve();
    });
  });
}

function replaceOnce(text, search, replacement, what) {
  const at = text.indexOf(search);
  if (at === -1 || text.indexOf(search, at + 1) !== -1) throw new Error(`${what}: expected exactly one ${search}`);
  return text.slice(0, at) + replacement + text.slice(at + search.length);
}

export async function prerenderApp(app) {
  const dir = path.join(repoRoot, app);
  if (!fs.existsSync(path.join(dir, 'src/prerender-entry.tsx'))) return 0;
  const buildDir = path.join(dir, 'dist/.prerender');
  await compile(createPrerenderConfig({ dir }));
  const entry = require(path.join(buildDir, 'entry.js'));
  const prerender = entry.default;
  const cssFile = path.join(buildDir, 'entry.css');
  const css = fs.existsSync(cssFile) ? fs.readFileSync(cssFile, 'utf8') : '';
  const outDir = path.join(dir, 'dist/prerender');
  fs.rmSync(outDir, { recursive: true, force: true });

  if (app === 'host') {
    const index = fs.readFileSync(path.join(dir, 'dist/index.html'), 'utf8');
    // The recipient's pages have an entry of their own (host/src/recipient-index.ts) and shells of their own.
    const recipientIndex = fs.readFileSync(path.join(dir, 'dist/recipient.html'), 'utf8');
    fs.mkdirSync(path.join(outDir, 'shells'), { recursive: true });
    // A route that starts the app on the visitor's first use (route-table.ts) gets a shell whose loader says so,
    // unless the build's route rules (checked into dist by host/build-info-plugin.js) send it elsewhere.
    const firstUseIndex = startOnFirstUse(index);
    const { rules } = JSON.parse(fs.readFileSync(path.join(dir, 'dist/route-rules.json'), 'utf8'));
    const shells = [
      ...prerender.paths.map((pagePath) => ({
        pagePath,
        layouts: prerender,
        document: entry.startsOnFirstUse?.(pagePath, rules) ? firstUseIndex : index,
      })),
      ...(entry.recipientShells?.paths ?? []).map((pagePath) => ({
        pagePath,
        layouts: entry.recipientShells,
        document: recipientIndex,
      })),
    ];
    for (const { pagePath, layouts, document } of shells) {
      const { html } = await layouts.render(pagePath);
      const layout = replaceOnce(html, PAGE_SLOT_TEXT, PAGE_MARKER, `host ${pagePath}`);
      const lang = pagePath === '/id' || pagePath.startsWith('/id/') ? 'id' : 'en';
      const shell = replaceOnce(document, PAGE_MARKER, layout, 'host index.html').replace(
        /<html lang="[a-z]+"/,
        `<html lang="${lang}"`,
      );
      fs.writeFileSync(path.join(outDir, 'shells', `${pageSlug(pagePath)}.html`), shell);
    }
    // Read by the server (prerender-stitcher.ts): visitor-only pages it redirects a signed-in user away from.
    fs.writeFileSync(
      path.join(outDir, 'signed-in-redirects.json'),
      JSON.stringify({ redirects: entry.signedInRedirects ?? {} }, null, 2),
    );
  } else {
    fs.mkdirSync(outDir, { recursive: true });
    const style = css ? `<style data-kabari-prerender="${app}">${css.replace(/\s*\n\s*/g, ' ')}</style>` : '';
    const routes = {};
    for (const pagePath of prerender.paths) {
      const slug = pageSlug(pagePath);
      const page = await prerender.render(pagePath);
      fs.writeFileSync(path.join(outDir, `${slug}.html`), page.html);
      // One head per page: its own <title> and description replace the host's defaults when stitched.
      fs.writeFileSync(path.join(outDir, `${slug}.head.html`), page.head + style);
      routes[pagePath] = {
        html: `${slug}.html`,
        head: `${slug}.head.html`,
        ...(page.sitemap ? { sitemap: true } : {}),
      };
    }
    fs.writeFileSync(path.join(outDir, 'routes.json'), JSON.stringify({ routes }, null, 2));
    // A remote whose pages depend on the request (remote-share's, on the link) leaves its render for the server to
    // run per request; written last, so a server that sees it finds the routes beside it.
    if (typeof entry.renderRecipientPage === 'function') {
      fs.copyFileSync(path.join(buildDir, 'entry.js'), path.join(outDir, 'server-render.cjs'));
    }
  }
  fs.rmSync(buildDir, { recursive: true, force: true });
  return prerender.paths.length;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  for (const app of process.argv.slice(2)) console.log(`${app}: ${await prerenderApp(app)} pages prerendered`);
}
