import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { transformFileSync } from '@swc/core';
import { heldTickObject } from '../../src/lib/tick-object-shape';

const source = path.join(__dirname, '../../src/lib/tick-object-shape.ts');
/** The Node the cliff was measured on. A later V8 may build or cache tick objects otherwise. */
const onNode20 = process.versions.node.startsWith('20.');
let folder: string;
let compiled: string;

beforeAll(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'kabari-tick-shape-'));
  compiled = path.join(folder, 'tick-object-shape.js');
  const { code } = transformFileSync(source, {
    swcrc: false,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  writeFileSync(compiled, code);
});

afterAll(() => rmSync(folder, { recursive: true, force: true }));

/**
 * In a fresh Node: (the module loaded, if `hold`), a thousand ticks, a full garbage collection with none queued, a
 * thousand more; then the states of the inline caches that define the tick object literal's properties, from V8's
 * own print of process.nextTick.
 */
function tickLiteralCaches(hold: boolean): string[] {
  const script = `
    ${hold ? `require(${JSON.stringify(compiled)});` : ''}
    const ticks = (n) => new Promise((resolve) => {
      let count = 0;
      const next = () => (++count === n ? resolve() : process.nextTick(next));
      process.nextTick(next);
    });
    (async () => {
      await ticks(1000);
      gc();
      await ticks(1000);
      %DebugPrint(process.nextTick);
    })();`;
  const scriptFile = path.join(folder, `ticks-${hold ? 'held' : 'free'}.js`);
  writeFileSync(scriptFile, script);
  // Without NODE_OPTIONS: a --require of the module there would hold a tick object in both runs.
  const printed = execFileSync(process.execPath, ['--expose-gc', '--allow-natives-syntax', scriptFile], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  return [...printed.matchAll(/DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((match) => match[1]!);
}

describe('holding a tick object', () => {
  it('holds one: an object with the two symbol keys nextTick gives each tick', () => {
    expect(heldTickObject).toBeDefined();
    // The first two: an AsyncLocalStorage in use (in this jest worker, other test files' ones) adds its own.
    expect(Object.getOwnPropertySymbols(heldTickObject).slice(0, 2).map(String)).toEqual([
      'Symbol(async_id_symbol)',
      'Symbol(trigger_async_id_symbol)',
    ]);
  });

  it('keeps the caches of nextTick’s literal monomorphic through a full collection', () => {
    const states = tickLiteralCaches(true);
    expect(states).not.toContain('MEGAMORPHIC');
    if (onNode20) expect(states).toEqual(['MONOMORPHIC', 'MONOMORPHIC', 'MONOMORPHIC', 'MONOMORPHIC']);
  });

  // What the module prevents, shown on the Node it was measured on.
  (onNode20 ? it : it.skip)('without it, the collection sends them megamorphic', () => {
    expect(tickLiteralCaches(false)).toContain('MEGAMORPHIC');
  });

  it('is the first thing the server loads', () => {
    const server = readFileSync(path.join(__dirname, '../../src/server.ts'), 'utf8');
    const firstImport = server.split('\n').find((line) => line.startsWith('import '));
    expect(firstImport).toBe("import './lib/tick-object-shape';");
  });
});
