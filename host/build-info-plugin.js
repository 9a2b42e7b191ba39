// Writes two small files into the host's build, both served no-cache (their names carry no hash):
// - latest-build.json: { buildId }, the build's hash, which the running code knows as __webpack_hash__;
//   a page that fetches a different one knows a new host has been deployed.
// - route-rules.json: { rules }, the route rules of host/route-rules.json, checked here so that a bad
//   rule fails the build instead of a visitor's navigation.
const fs = require('node:fs');
const { Compilation, sources } = require('webpack');

const name = 'KabariBuildInfoPlugin';

/** @param {unknown} rules @param {string} file */
function checkRouteRules(rules, file) {
  const problems = [];
  if (typeof rules !== 'object' || rules === null || Array.isArray(rules)) {
    throw new Error(`${file}: "rules" must be an object of path → { "redirect": target }`);
  }
  for (const [path, rule] of Object.entries(rules)) {
    if (!path.startsWith('/') || path.startsWith('/id/') || path === '/id' || (path !== '/' && path.endsWith('/'))) {
      problems.push(`${path}: write the English path, starting with / and without a trailing slash`);
    }
    const target = rule && typeof rule === 'object' ? rule.redirect : undefined;
    if (typeof target !== 'string' || !(target.startsWith('/') || /^https?:\/\//.test(target))) {
      problems.push(`${path}: "redirect" must be a path of the app or an http(s) URL`);
    } else if (target.startsWith('/') && Object.hasOwn(rules, target.split(/[?#]/)[0].replace(/(.)\/+$/, '$1'))) {
      problems.push(`${path}: redirects to ${target}, which has a rule of its own (no chains, no loops)`);
    }
  }
  if (problems.length) throw new Error(`${file}:\n  ${problems.join('\n  ')}`);
  return rules;
}

class BuildInfoPlugin {
  /** @param {{ routeRulesFile: string }} options */
  constructor(options) {
    this.routeRulesFile = options.routeRulesFile;
  }

  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    compiler.hooks.thisCompilation.tap(name, (compilation) => {
      compilation.fileDependencies.add(this.routeRulesFile);
      compilation.hooks.processAssets.tap({ name, stage: Compilation.PROCESS_ASSETS_STAGE_REPORT }, () => {
        let rules;
        try {
          rules = checkRouteRules(JSON.parse(fs.readFileSync(this.routeRulesFile, 'utf8')).rules, this.routeRulesFile);
        } catch (error) {
          compilation.errors.push(new compiler.webpack.WebpackError(error.message));
          return;
        }
        const json = (value) => new sources.RawSource(`${JSON.stringify(value)}\n`);
        compilation.emitAsset('latest-build.json', json({ buildId: compilation.hash }));
        compilation.emitAsset('route-rules.json', json({ rules }));
      });
    });
  }
}

module.exports = { BuildInfoPlugin, checkRouteRules };
