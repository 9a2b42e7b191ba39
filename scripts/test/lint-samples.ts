import { execFileSync } from 'node:child_process';
import path from 'node:path';

// The lint tests' one way to ask the repository's ESLint about sample files (lint-texts.mjs, in a process of its own).

export interface LintMessage {
  ruleId: string | null;
  message: string;
}

/** What the repository's lint says about each text, linted as the file it names (nothing is written). */
export function lint(files: { filePath: string; code: string }[]): LintMessage[][] {
  const output = execFileSync(process.execPath, [path.join(__dirname, 'lint-texts.mjs')], {
    input: JSON.stringify(files),
    encoding: 'utf8',
  });
  return JSON.parse(output) as LintMessage[][];
}

/** A module that imports one thing from `from` and uses it. */
export const importOf = (from: string) => `import { thing } from '${from}';\nexport const used = thing;\n`;
