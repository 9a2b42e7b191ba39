// The e2e suite's own helpers, for the bench: real subscribers signed up through the API (e2e/support/subscriber.ts),
// links with and without a voice note (voice-link.ts), the soak run's loop (soak-loop.ts), so the bench and the tests
// share one way of doing each. Those helpers are TypeScript: they are compiled here with swc (already used by every
// build) into bench/reports/ as CommonJS, where their imports resolve from the repository's node_modules (and
// jsencrypt loads its CommonJS build, as under Playwright).
import fsp from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Compiles e2e/support/<name>.ts for each of `names`, and every TypeScript file of the repository they import by a
 * relative path (e.g. the server tests' voice-audio.ts), into `outDir` at their paths in the repository (CommonJS,
 * with a package.json saying so, so that those imports resolve), and loads them, by name.
 * @param {string} repoRoot
 * @param {string} outDir a folder inside the repository
 * @param {string[]} names
 * @returns {Promise<Record<string, any>>}
 */
export async function loadE2eSupport(repoRoot, outDir, names) {
  const { transformFile } = await import('@swc/core');
  await fsp.mkdir(outDir, { recursive: true });
  await fsp.writeFile(path.join(outDir, 'package.json'), '{ "type": "commonjs" }\n');
  const compiled = new Set();
  const compile = async (/** @type {string} */ source) => {
    if (compiled.has(source)) return;
    compiled.add(source);
    const { code } = await transformFile(source, {
      jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
      module: { type: 'commonjs' },
      sourceMaps: false,
    });
    const target = path.join(outDir, path.relative(repoRoot, source)).replace(/\.ts$/, '.js');
    await fsp.mkdir(path.dirname(target), { recursive: true });
    await fsp.writeFile(target, code);
    for (const [, imported] of code.matchAll(/require\("(\.{1,2}\/[^"]+)"\)/g)) {
      await compile(`${path.resolve(path.dirname(source), /** @type {string} */ (imported))}.ts`);
    }
  };
  const entry = (/** @type {string} */ name) => path.join(repoRoot, 'e2e/support', `${name}.ts`);
  for (const name of names) await compile(entry(name));
  const require = createRequire(import.meta.url);
  const load = (/** @type {string} */ name) =>
    require(path.join(outDir, path.relative(repoRoot, entry(name))).replace(/\.ts$/, '.js'));
  return Object.fromEntries(names.map((name) => [name, load(name)]));
}
