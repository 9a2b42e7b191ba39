import { cpSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from './databases';

/** A private copy of test/fixtures/web (built host and remotes) that a test may change. */
export function copyWebFixture(): string {
  const webRoot = tempDir('kabari-test-web-');
  cpSync(path.join(__dirname, '..', 'fixtures', 'web'), webRoot, { recursive: true });
  return webRoot;
}
