import { useRef, useState, type FormEvent } from 'react';
import { renderToString } from 'react-dom/server';
import { act, render, screen } from '@testing-library/react';
import { SUBMIT_BEFORE_START, useSubmitBeforeStart } from './use-submit-before-start';
import { useTypedBeforeHydration } from './use-typed-before-hydration';

/** A prerendered form whose submit reports the name its state holds then. */
function PrerenderedForm({ onSend }: { onSend: (name: string) => void }) {
  const [name, setName] = useState('');
  const form = useRef<HTMLFormElement>(null);
  const field = useRef<HTMLInputElement>(null);
  useTypedBeforeHydration(() => [{ element: field.current, value: name, adopt: setName }]);
  const held = useSubmitBeforeStart(form);
  function send(event: FormEvent) {
    event.preventDefault();
    onSend(name);
  }
  return (
    <form ref={form} aria-label="Greeting" onSubmit={send} {...held.form}>
      <label htmlFor="name">Name</label>
      <input id="name" ref={field} value={name} onChange={(event) => setName(event.target.value)} />
      <button type="submit" {...held.submitButton}>
        Send
      </button>
    </form>
  );
}

/** The prerendered HTML, typed into (and perhaps sent, as the page's first script holds it) before hydration. */
async function hydrateAfter({ sent }: { sent: boolean }, onSend: (name: string) => void) {
  const ui = <PrerenderedForm onSend={onSend} />;
  const container = document.createElement('div');
  container.innerHTML = renderToString(ui);
  document.body.appendChild(container);
  const form = container.querySelector('form') as HTMLFormElement;
  expect(form.hasAttribute(SUBMIT_BEFORE_START.held)).toBe(true);
  const button = container.querySelector('button') as HTMLButtonElement;
  expect(button).toBeDisabled();
  // What the page's first script does.
  button.disabled = false;
  (container.querySelector('#name') as HTMLInputElement).value = 'Rina';
  if (sent) {
    form.setAttribute(SUBMIT_BEFORE_START.pending, '');
    form.setAttribute('aria-busy', 'true');
  }
  await act(async () => {
    render(ui, { container, hydrate: true });
  });
  return form;
}

describe('useSubmitBeforeStart', () => {
  let consoleError: jest.SpyInstance;
  beforeEach(() => {
    consoleError = jest.spyOn(console, 'error');
  });
  afterEach(() => {
    // What the first script wrote is expected: hydration finds nothing to warn about.
    expect(consoleError).not.toHaveBeenCalled();
    consoleError.mockRestore();
    document.body.innerHTML = '';
  });

  it('sends a form held before hydration once, with what was typed, and holds it no longer', async () => {
    const onSend = jest.fn();
    const form = await hydrateAfter({ sent: true }, onSend);
    expect(onSend.mock.calls).toEqual([['Rina']]);
    for (const mark of [SUBMIT_BEFORE_START.held, SUBMIT_BEFORE_START.pending, 'aria-busy']) {
      expect(form.hasAttribute(mark)).toBe(false);
    }
    // From now on the app's handler answers, once per submit.
    const send = screen.getByRole('button', { name: 'Send' });
    expect(send).toBeEnabled();
    await act(async () => send.click());
    expect(onSend).toHaveBeenCalledTimes(2);
  });

  it('sends nothing when nothing was held', async () => {
    const onSend = jest.fn();
    const form = await hydrateAfter({ sent: false }, onSend);
    expect(onSend).not.toHaveBeenCalled();
    expect(form.hasAttribute(SUBMIT_BEFORE_START.held)).toBe(false);
  });

  it('never marks a form the client mounted', () => {
    render(<PrerenderedForm onSend={jest.fn()} />);
    expect(screen.getByRole('form', { name: 'Greeting' }).hasAttribute(SUBMIT_BEFORE_START.held)).toBe(false);
  });
});
