// Lints source texts as if they were files of the repository (stdin: [{ filePath, code }]; stdout: the messages of
// each), with the repository's own ESLint configuration. The lint rules' tests use it.
import { ESLint } from 'eslint';
import { repoRoot } from '../lib/run.mjs';

let input = '';
for await (const chunk of process.stdin) input += chunk;
const eslint = new ESLint({ cwd: repoRoot });
const results = [];
for (const { filePath, code } of JSON.parse(input)) {
  const [result] = await eslint.lintText(code, { filePath });
  results.push(result.messages.map(({ ruleId, message }) => ({ ruleId, message })));
}
process.stdout.write(JSON.stringify(results));
