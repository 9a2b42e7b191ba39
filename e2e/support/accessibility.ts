import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * axe's findings on the page as it is now, one line each with where it is: a screen passes with none.
 * axe.run in the page itself (legacy mode): the default opens a second, blank page to merge the results of each frame
 * and injects axe there too, about 1.3 s more per check here, for cross-origin frames Kabari's pages do not have.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).setLegacyMode().analyze();
  return violations.flatMap((violation) =>
    violation.nodes.map((node) => `${violation.id} (${violation.impact}): ${node.target.join(' ')}`),
  );
}
