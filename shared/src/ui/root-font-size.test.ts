import fs from 'node:fs';
import path from 'node:path';
import { rootFontSize, rootFontSizeRule } from './root-font-size';

describe('root font size', () => {
  it('is 16px above a 980px viewport', () => {
    expect(rootFontSize(981)).toBe(16);
    expect(rootFontSize(1280)).toBe(16);
    expect(rootFontSize(2560)).toBe(16);
  });

  it('scales with the viewport width against the 750px design at 980px and below', () => {
    expect(rootFontSize(375)).toBeCloseTo(16);
    expect(rootFontSize(390)).toBeCloseTo(16.64);
    expect(rootFontSize(750)).toBeCloseTo(32);
    expect(rootFontSize(980)).toBeCloseTo(41.81, 2);
  });

  it('clamps the width at 320px', () => {
    expect(rootFontSize(300)).toBeCloseTo(rootFontSize(320));
    expect(rootFontSize(0)).toBeCloseTo(13.65, 2);
  });

  it('matches the CSS rule in the HTML template', () => {
    // The rule is written in CSS (see root-font-size.ts); its numbers must be these.
    const html = fs.readFileSync(path.resolve(__dirname, '../../../webpack/index.html'), 'utf8').replace(/\s+/g, '');
    const { breakpoint, desktop, designWidth, designRem, minWidth, maxWidth } = rootFontSizeRule;
    expect(html).toContain(`html{font-size:${desktop}px;}`);
    expect(html).toContain(
      `@media(max-width:${breakpoint}px){html{font-size:calc(clamp(${minWidth}px,100vw,${maxWidth}px)*${designRem}/${designWidth});}}`,
    );
  });
});
