import type { ReactNode } from 'react';

/**
 * A table that scrolls sideways on a phone rather than squeezing its columns. The region takes the keyboard's focus,
 * so that it can be scrolled without a pointer, and is named by the table's heading. The page around it is then not
 * named by the same heading: two landmarks of one name tell a screen reader's user nothing (axe's landmark-unique).
 */
export function TableScroll({ labelledBy, children }: { labelledBy: string; children: ReactNode }) {
  return (
    <div className="console-table-scroll" role="region" aria-labelledby={labelledBy} tabIndex={0}>
      {children}
    </div>
  );
}
