import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const repoRoot = path.resolve(__dirname, '../..');

describe("the server's production build (scripts/lib/build-server.mjs)", () => {
  // Inside the repository, so that the built modules find their dependencies in its node_modules.
  const output = path.join(repoRoot, '.tmp', `server-build-test-${process.pid}`);

  afterAll(() => {
    fs.rmSync(output, { recursive: true, force: true });
  });

  it('writes the place index, which the built geocoder reads without indexing the places again', () => {
    const buildScript = pathToFileURL(path.join(repoRoot, 'scripts/lib/build-server.mjs')).href;
    execFileSync(process.execPath, [
      '--input-type=module',
      '-e',
      `import { buildServer } from ${JSON.stringify(buildScript)};
       await buildServer(${JSON.stringify(repoRoot)}, ${JSON.stringify(output)});`,
    ]);
    expect(fs.existsSync(path.join(output, 'server.js'))).toBe(true);
    expect(fs.existsSync(path.join(output, 'geo/places.bin'))).toBe(true);

    // In a process of its own, as the production server runs it (Node's require of the compiled module).
    const answer = execFileSync(process.execPath, [
      '-e',
      `const { openPlaceIndex } = require(${JSON.stringify(path.join(output, 'geo/place-index.js'))});
       const warnings = [];
       const indexAgain = () => { throw new Error('the places were indexed again'); };
       openPlaceIndex({ warn: (_, message) => warnings.push(message) }, undefined, indexAgain).then((index) =>
         console.log(JSON.stringify({ place: index.nearest(-6.1754, 106.8272), warnings })));`,
    ]).toString();
    expect(JSON.parse(answer)).toEqual({
      place: { name: 'Jakarta', countryCode: 'ID', distanceKm: null },
      warnings: [],
    });
  });

  it('carries the rules the browser applies too, compiled, so the built server runs them without TypeScript', () => {
    // Built by the test above (jest runs a file's tests in order).
    const rules = path.join(output, 'node_modules/@kabari/rules');
    expect(
      fs
        .readdirSync(rules)
        .filter((name) => name.endsWith('.js'))
        .sort(),
    ).toEqual([
      'display-name-limits.js',
      'display-name.js',
      'link-detector.js',
      'lure-check.js',
      'money.js',
      'quick-exit.js',
    ]);
    const answer = execFileSync(process.execPath, [
      '-e',
      `const { displayNameProblem } = require(${JSON.stringify(path.join(output, 'auth/display-name.js'))});
       const { receiptEmail } = require(${JSON.stringify(path.join(output, 'billing/emails.js'))});
       const facts = { displayName: 'Sari', amount: 449000, currency: 'IDR', kind: 'renewal', paidAt: new Date(0),
         paymentId: 'p', method: 'card', validUntil: new Date(0), nextAmount: 449000, sandbox: false };
       console.log(JSON.stringify({
         name: displayNameProblem('Bank BCA Security')?.en,
         subject: receiptEmail('id', facts).subject.replace(/\u00a0/g, ' '),
         rulesFrom: Object.keys(require.cache).filter((file) => file.includes('@kabari')).map((file) =>
           require('node:path').relative(${JSON.stringify(output)}, file)).sort(),
       }));`,
    ]).toString();
    expect(JSON.parse(answer)).toEqual({
      name: "A name cannot contain the name of a bank or a payment service, nor Kabari's",
      subject: expect.stringContaining('Rp 449.000'),
      rulesFrom: [
        'node_modules/@kabari/rules/display-name-limits.js',
        'node_modules/@kabari/rules/display-name.js',
        'node_modules/@kabari/rules/link-detector.js',
        'node_modules/@kabari/rules/lure-check.js',
        'node_modules/@kabari/rules/money.js',
      ],
    });
  });
});
