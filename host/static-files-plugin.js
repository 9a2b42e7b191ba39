// Copies host/static/ into the build as it is, at the site's root: the service worker (/sw.js, whose place decides
// what it may control), the web app manifest and its icons. Their names carry no hash, so the server sends them
// to be revalidated, and a new deployment's service worker is picked up.
const fs = require('node:fs');
const path = require('node:path');
const { Compilation, sources } = require('webpack');

const name = 'KabariStaticFilesPlugin';

/** @param {string} dir @returns {string[]} every file under dir, relative to it */
function filesUnder(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full).map((file) => path.join(entry.name, file)) : [entry.name];
  });
}

class StaticFilesPlugin {
  /** @param {{ dir: string }} options */
  constructor(options) {
    this.dir = options.dir;
  }

  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    compiler.hooks.thisCompilation.tap(name, (compilation) => {
      compilation.contextDependencies.add(this.dir);
      compilation.hooks.processAssets.tap({ name, stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
        for (const file of filesUnder(this.dir)) {
          const asset = file.split(path.sep).join('/');
          compilation.emitAsset(asset, new sources.RawSource(fs.readFileSync(path.join(this.dir, file))));
        }
      });
    });
  }
}

module.exports = { StaticFilesPlugin };
