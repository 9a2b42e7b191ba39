/** A bytea value as a Buffer: node-postgres answers with a Buffer, PGlite with a Uint8Array (no copy either way). */
export function asBuffer(value: Buffer | Uint8Array): Buffer {
  return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.length);
}
