import fs from 'node:fs';
import type { Page } from '@playwright/test';
import type { AxeResults } from 'axe-core';

const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe's findings on the page as it is now, one line each with where it is: a screen passes with none.
 * axe-core runs in the page itself, injected once per document and asked for violations only. @axe-core/playwright
 * cost about 0.4 s more per check here (it injects axe again on every call and configures it for cross-origin
 * frames, which Kabari's pages do not have); with some 60 checks on two busy cores, that was most of a minute.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  // A dialog still fading in has its text at part opacity, which axe would measure as poor contrast: the screen is
  // checked as the user reads it, once every finite animation has ended (a spinner's never does). antd's motion first
  // marks an element (its "-appear"/"-enter" classes, at opacity 0 or part way) and only frames later starts the
  // animation, so a check between the two once saw no animation yet and measured a half-shown dialog. ("-leave" is not
  // waited for: a button's loading icon can stay marked as leaving, unseen, long after its spinner stopped.)
  await page.waitForFunction(
    () =>
      !document.querySelector('[class*="-appear"], [class*="-enter"]') &&
      document.getAnimations().every((animation) => animation.effect?.getComputedTiming().endTime === Infinity),
    undefined,
    { polling: 'raf' },
  );
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const { axe } = window as unknown as { axe: { run: (context: Document, options: object) => Promise<AxeResults> } };
    const { violations } = await axe.run(document, { resultTypes: ['violations'] });
    return violations.flatMap((violation) =>
      violation.nodes.map((node) => `${violation.id} (${violation.impact}): ${node.target.join(' ')}`),
    );
  });
}
