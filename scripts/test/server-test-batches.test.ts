import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

interface Batches {
  batches: string[][];
  apart: string[];
}
interface BatchesModule {
  serverTestBatches(root?: string): Batches;
  testFilesOfBatch(batchFile: string, root?: string): string[];
  testRoot: string;
}

const repoRoot = path.resolve(__dirname, '../..');
const batchesModule = path.join(repoRoot, 'server/test-batches.js');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain JavaScript, as jest.config.js reads it
const { serverTestBatches, testFilesOfBatch, testRoot } = require(batchesModule) as BatchesModule;

/** The server project's jest configuration as jest reads it, with KABARI_JEST_BATCHES as given. */
function serverJestConfig(batchesEnv: string | undefined): { testPathIgnorePatterns: string[] } {
  const before = process.env.KABARI_JEST_BATCHES;
  if (batchesEnv === undefined) delete process.env.KABARI_JEST_BATCHES;
  else process.env.KABARI_JEST_BATCHES = batchesEnv;
  try {
    let config: { testPathIgnorePatterns: string[] } | undefined;
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- read afresh, as jest reads it
      config = require(path.join(repoRoot, 'server/jest.config.js'));
    });
    return config!;
  } finally {
    if (before === undefined) delete process.env.KABARI_JEST_BATCHES;
    else process.env.KABARI_JEST_BATCHES = before;
  }
}

const ignored = (config: { testPathIgnorePatterns: string[] }, file: string) =>
  config.testPathIgnorePatterns.some((pattern) => new RegExp(pattern).test(file));

describe("the server's test batches (server/test-batches.js)", () => {
  let scratch: string;
  beforeAll(() => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'kabari-batches-'));
  });
  afterAll(() => {
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  /** A test folder of files of the given sizes (a file's text is `jest.mock(` when it replaces a module). */
  function testFolder(name: string, files: Record<string, string | number>, batchFiles: number[]): string {
    const root = path.join(scratch, name);
    for (const [file, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), typeof content === 'number' ? 'x'.repeat(content) : content);
    }
    fs.mkdirSync(path.join(root, 'batches'), { recursive: true });
    for (const number of batchFiles) fs.writeFileSync(path.join(root, `batches/batch-${number}.test.ts`), '');
    return root;
  }

  it('runs every server test file once: in one batch, or apart when it replaces a module for its tests', () => {
    const { batches, apart } = serverTestBatches();
    const everyFile = fs
      .readdirSync(testRoot, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.test.ts') && !file.startsWith(`batches${path.sep}`))
      .sort();
    expect([...batches.flat(), ...apart].sort()).toEqual(everyFile);
    expect(batches.length).toBeGreaterThan(1);
    for (const batch of batches) expect(batch.length).toBeGreaterThan(0);
    expect(apart).toContain('lib/response-serializer.test.ts');
    for (const file of batches.flat())
      expect(fs.readFileSync(path.join(testRoot, file), 'utf8')).not.toMatch(/jest\.mock\(/);
  });

  it('fills the lightest batch with the largest file left, ties by path, so the same files make the same batches', () => {
    const root = testFolder(
      'balanced',
      {
        'a.test.ts': 50,
        'b/c.test.ts': 40,
        'd.test.ts': 30,
        'e.test.ts': 20,
        'f.test.ts': 10,
        'g.test.ts': 10,
        'mocks.test.ts': "jest.mock('fastify');",
        'support/helper.ts': 500,
      },
      [1, 2],
    );
    const expected = {
      batches: [
        ['a.test.ts', 'e.test.ts', 'f.test.ts'],
        ['b/c.test.ts', 'd.test.ts', 'g.test.ts'],
      ],
      apart: ['mocks.test.ts'],
    };
    expect(serverTestBatches(root)).toEqual(expected);
    expect(serverTestBatches(root)).toEqual(expected);
    // What each batch file runs, found by its name.
    expect(testFilesOfBatch(path.join(root, 'batches/batch-2.test.ts'), root)).toEqual(expected.batches[1]);
    expect(() => testFilesOfBatch(path.join(root, 'batches/batch-3.test.ts'), root)).toThrow(
      'batch-3.test.ts: no such batch',
    );
  });

  it('weighs a file by its tests’ measured seconds where batches/test-seconds.json has them, else by its size', () => {
    const root = testFolder(
      'timed',
      { 'big.test.ts': 4000, 'small-but-slow.test.ts': 100, 'a.test.ts': 1000, 'b.test.ts': 1000, 'c.test.ts': 1000 },
      [1, 2],
    );
    // By size alone, the big file would fill one batch and the rest the other. Measured, the small file waits on
    // timers for 20 s: it gets a batch of its own, and the others go with the big one.
    expect(serverTestBatches(root).batches).toEqual([
      ['big.test.ts'],
      ['a.test.ts', 'b.test.ts', 'c.test.ts', 'small-but-slow.test.ts'],
    ]);
    fs.writeFileSync(
      path.join(root, 'batches/test-seconds.json'),
      JSON.stringify({ 'big.test.ts': 2, 'small-but-slow.test.ts': 20, 'a.test.ts': 1 }),
    );
    expect(serverTestBatches(root).batches).toEqual([
      ['small-but-slow.test.ts'],
      ['a.test.ts', 'b.test.ts', 'big.test.ts', 'c.test.ts'],
    ]);
  });

  it('says which batch file is missing when the numbers have a gap', () => {
    const root = testFolder('gap', { 'a.test.ts': 1, 'b.test.ts': 1 }, [1, 3]);
    expect(() => serverTestBatches(root)).toThrow('batch-2.test.ts is missing');
  });

  it('in `npm test`, jest runs the batches and the files apart, not the batched files again; otherwise each file', () => {
    const { batches, apart } = serverTestBatches();
    const batchFiles = batches.map((_, index) => path.join(testRoot, `batches/batch-${index + 1}.test.ts`));
    for (const file of batchFiles) expect(fs.existsSync(file)).toBe(true);

    const batched = serverJestConfig('1');
    for (const file of batches.flat()) expect(ignored(batched, path.join(testRoot, file))).toBe(true);
    for (const file of [...apart, ...batchFiles]) expect(ignored(batched, path.join(testRoot, file))).toBe(false);

    const alone = serverJestConfig(undefined);
    for (const file of [...batches.flat(), ...apart]) expect(ignored(alone, path.join(testRoot, file))).toBe(false);
    for (const file of batchFiles) expect(ignored(alone, file)).toBe(true);
  });
});
