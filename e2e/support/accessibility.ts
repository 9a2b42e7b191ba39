import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** axe's findings on the page as it is now, one line each with where it is: a screen passes with none. */
export async function axeViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations.flatMap((violation) =>
    violation.nodes.map((node) => `${violation.id} (${violation.impact}): ${node.target.join(' ')}`),
  );
}
