// Small numeric and table helpers shared by the bench modules.

/** Kilobytes as the bench reports them: 1 KB = 1000 bytes (as Chrome DevTools counts). */
export const KB = 1000;

/** @param {number} bytes @returns {number} KB rounded to one decimal */
export const toKB = (bytes) => Math.round((bytes / KB) * 10) / 10;

/**
 * Median of the finite numbers given (mean of the middle two for an even count); null if none.
 * @param {Array<number | null | undefined>} values
 * @returns {number | null}
 */
export function median(values) {
  const sorted = values
    .filter(/** @returns {v is number} */ (v) => typeof v === 'number' && Number.isFinite(v))
    .sort((a, b) => a - b);
  if (!sorted.length) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * A plain-text table: columns padded, numbers right-aligned.
 * @param {string[]} head
 * @param {Array<Array<string | number | null | undefined>>} rows
 * @param {string} [indent]
 * @returns {string}
 */
export function table(head, rows, indent = '  ') {
  const cells = rows.map((row) => row.map((cell) => (cell === null || cell === undefined ? '–' : String(cell))));
  const numeric = head.map((_, i) => cells.every((row) => /^(–|[-+]?\d[\d.,]*)$/.test(row[i] ?? '–')));
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((row) => (row[i] ?? '').length)));
  const line = (/** @type {string[]} */ row) =>
    indent +
    row
      .map((cell, i) => (numeric[i] ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(head), indent + widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}

/** @param {number} value @param {number} digits */
export const fixed = (value, digits) =>
  typeof value === 'number' && Number.isFinite(value) ? Number(value.toFixed(digits)) : null;
