/**
 * Which request paths may be answered with a file from a build folder.
 *
 * Only the one canonical spelling of a public file is served. A browser never sends anything else for the files our
 * pages link to, so any other spelling (a double slash, a dot segment, a percent-encoded dot, slash or backslash, a
 * backslash, a second layer of encoding) is refused rather than tidied: tidying is where a guard and the file system
 * disagree about which file is meant. The checks run on the decoded path, which is exactly the file the static
 * file server opens, since it holds no '%' left to decode.
 */

/** Build inputs and tooling that sit beside the public files; matched in any case (case-insensitive disks). */
const PRIVATE_FOLDERS = new Set([
  // The prerender fragments, shells and routes.json: read by the server to stitch pages, never sent as files.
  'prerender',
  'node_modules',
]);

/** Control characters (a NUL among them), a backslash, a '%' that would be decoded a second time. */
function hasForbiddenCharacter(path: string): boolean {
  for (const character of path) {
    const code = character.charCodeAt(0);
    if (code < 0x20 || code === 0x7f || character === '\\' || character === '%') return true;
  }
  return false;
}

/**
 * The path to hand to the static file server for a request path (no query) that asks for a file, or null when
 * that spelling may not be served: not canonical, a dotfile or dot folder, a private folder, or a source map
 * (the production build emits none; one left behind by a debugging build would publish the source).
 */
export function publicFilePath(rawPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return null;
  }
  if (hasForbiddenCharacter(decoded)) return null;
  const [root, ...segments] = decoded.split('/');
  if (root !== '' || segments.length === 0) return null;
  for (const segment of segments) {
    // Empty: a double or trailing slash. A leading dot: '.', '..', dotfiles and dot folders. A trailing dot or
    // space: another spelling of the same name on some file systems.
    if (segment === '' || segment.startsWith('.') || /[.\s]$/.test(segment)) return null;
    if (PRIVATE_FOLDERS.has(segment.toLowerCase())) return null;
  }
  if (decoded.toLowerCase().endsWith('.map')) return null;
  return decoded;
}
