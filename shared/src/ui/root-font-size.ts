/**
 * The root font size in CSS pixels: 16 on desktop, scaled with the viewport's width on phones.
 * The rule itself lives in CSS, in the <head> of
 * webpack/index.html, so it applies before the first paint and follows resizes with no script (a
 * script would shift prerendered pages, and the Content-Security-Policy forbids inline scripts).
 * This function is the rule's specification: jest checks it, and an end-to-end test checks that
 * the browser's computed root font size equals it at several widths.
 */
export const rootFontSizeRule = {
  /** Above this viewport width: the desktop size. */
  breakpoint: 980,
  desktop: 16,
  /** The phone design is drawn 750px wide, at twice a 375px phone's CSS pixels... */
  designWidth: 750,
  /** ...so 1rem is 32px of the design: 16px on a 375px phone, the same rem sizes as on desktop. */
  designRem: 32,
  minWidth: 320,
  maxWidth: 1440,
} as const;

export function rootFontSize(viewportWidth: number): number {
  const { breakpoint, desktop, designWidth, designRem, minWidth, maxWidth } = rootFontSizeRule;
  if (viewportWidth > breakpoint) return desktop;
  const width = Math.min(Math.max(viewportWidth, minWidth), maxWidth);
  return (width * designRem) / designWidth;
}
