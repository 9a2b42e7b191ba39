// Writes .br and .gz twins of text assets so the server sends compressed files without
// compressing on every request.
import fs from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import { promisify } from 'node:util';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const compressible = /\.(js|css|html|json|svg|txt|map)$/;

export async function precompressDir(dir) {
  const entries = await fs.readdir(dir, { withFileTypes: true, recursive: true });
  let count = 0;
  for (const entry of entries) {
    if (!entry.isFile() || !compressible.test(entry.name)) continue;
    const file = path.join(entry.parentPath ?? entry.path, entry.name);
    const content = await fs.readFile(file);
    if (content.length < 1024) continue;
    const [br, gz] = await Promise.all([
      brotli(content, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
      gzip(content, { level: 9 }),
    ]);
    await Promise.all([fs.writeFile(`${file}.br`, br), fs.writeFile(`${file}.gz`, gz)]);
    count += 1;
  }
  return count;
}
