import { act, render, screen } from '@testing-library/react';
// eslint-disable-next-line no-restricted-imports -- the test reads antd's tokens; no app bundles antd's theme entry
import theme from 'antd/es/theme';
import { AntdScope } from './antd-scope';

/** window.matchMedia answering the reduced-motion query as `reduce` says, and able to change its answer. */
function systemMotion(reduce: boolean) {
  const listeners = new Set<() => void>();
  const list = {
    get matches() {
      return reduce;
    },
    media: '(prefers-reduced-motion: reduce)',
    addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
  };
  const original = window.matchMedia;
  window.matchMedia = ((query: string) =>
    query === list.media ? list : original(query)) as unknown as typeof window.matchMedia;
  return {
    change(next: boolean) {
      reduce = next;
      for (const listener of listeners) listener();
    },
    restore: () => {
      window.matchMedia = original;
    },
  };
}

/** What antd's components inside the scope are told: whether to animate. */
function MotionSetting() {
  const { token } = theme.useToken();
  return <p data-testid="motion">{token.motion ? 'motion' : 'no motion'}</p>;
}

const scope = (
  <AntdScope>
    <MotionSetting />
  </AntdScope>
);

describe('AntdScope and motion', () => {
  let system: ReturnType<typeof systemMotion> | undefined;
  afterEach(() => system?.restore());

  it("keeps antd's motion (dialogs zoom open, toasts slide) by default", () => {
    system = systemMotion(false);
    render(scope);
    expect(screen.getByTestId('motion')).toHaveTextContent(/^motion$/);
  });

  it("turns antd's motion off for someone who asked their system for less motion", () => {
    system = systemMotion(true);
    render(scope);
    expect(screen.getByTestId('motion')).toHaveTextContent('no motion');
  });

  it('follows the setting when it changes while the page is open', () => {
    system = systemMotion(false);
    render(scope);
    act(() => system?.change(true));
    expect(screen.getByTestId('motion')).toHaveTextContent('no motion');
    act(() => system?.change(false));
    expect(screen.getByTestId('motion')).toHaveTextContent(/^motion$/);
  });
});
