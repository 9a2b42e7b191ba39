// Replaces the entry's `<script defer>` in the built HTML with a preload of it and a tiny loader script
// (start-after-first-paint.browser.js) that runs it once the page has painted. With a plain deferred entry,
// the browser often evaluated the app's scripts (and began hydrating) before its first frame: on a phone the
// prerendered text then waits for them, and Lighthouse counts their download and evaluation into the LCP.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { minifySync } = require('@swc/core');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const { Compilation, sources } = require('webpack');

const name = 'KabariStartAfterFirstPaintPlugin';
const loaderSource = path.join(__dirname, 'start-after-first-paint.browser.js');

class StartAfterFirstPaintPlugin {
  /** @param {{ hashed: boolean }} options  hashed: a content hash in the loader's name (production builds) */
  constructor(options) {
    this.hashed = options.hashed;
  }

  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    compiler.hooks.thisCompilation.tap(name, (compilation) => {
      compilation.fileDependencies.add(loaderSource);
      // Minified here, and emitted as minimized, so that the bytes served are exactly the bytes the name's hash
      // was taken from (a minifier update must give a new name, the file being cached for good).
      const source = fs.readFileSync(loaderSource, 'utf8');
      const code = this.hashed ? minifySync(source, { compress: { passes: 2 }, mangle: true }).code : source;
      const hash = crypto.createHash('sha256').update(code).digest('hex').slice(0, 10);
      const fileName = this.hashed ? `start.${hash}.js` : 'start.js';
      // Early, so the build's precompression treats it like every other script; the minimizer leaves it as it is.
      compilation.hooks.processAssets.tap({ name, stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
        compilation.emitAsset(fileName, new sources.RawSource(code), { minimized: true });
      });
      HtmlWebpackPlugin.getHooks(compilation).alterAssetTagGroups.tap(name, (data) => {
        const entries = data.headTags.filter(
          (tag) => tag.tagName === 'script' && typeof tag.attributes.src === 'string',
        );
        if (entries.length !== 1) {
          compilation.errors.push(
            new compiler.webpack.WebpackError(
              `${name}: expected one entry script in the head, found ${entries.length}`,
            ),
          );
          return data;
        }
        const entry = /** @type {string} */ (entries[0].attributes.src);
        // The loader sits next to the entry, under the same public path.
        const loader = entry.slice(0, entry.lastIndexOf('/') + 1) + fileName;
        const others = data.headTags.filter((tag) => tag !== entries[0]);
        data.headTags = [
          // The stylesheet first: it holds the first paint, the script does not.
          ...others,
          HtmlWebpackPlugin.createHtmlTagObject('link', { rel: 'preload', as: 'script', href: entry }),
          HtmlWebpackPlugin.createHtmlTagObject('script', { defer: true, src: loader, 'data-entry': entry }),
        ];
        return data;
      });
    });
  }
}

/**
 * The built page (HTML with this plugin's two tags) made to start the app on the visitor's first use: the loader is
 * told so, and the entry is not preloaded (it would take the slow network's bandwidth from the page's stylesheet and
 * delay the first paint; the loader fetches it at low priority once the page has loaded).
 * @param {string} html
 * @returns {string}
 */
function startOnFirstUse(html) {
  const preload = /<link rel="preload" as="script" href="([^"]+)">/;
  const entry = html.match(preload)?.[1];
  const loader = entry && new RegExp(`<script defer="defer" src="([^"]+)" data-entry="${entry}">`);
  if (!entry || !loader?.test(html)) throw new Error(`${name}: no entry preload and loader to change`);
  return html
    .replace(preload, '')
    .replace(loader, (tag) => tag.replace(' data-entry=', ' data-start="on-first-use" data-entry='));
}

module.exports = { StartAfterFirstPaintPlugin, startOnFirstUse };
