import { useRef, useState } from 'react';
import { renderToString } from 'react-dom/server';
import { render, screen } from '@testing-library/react';
import { useHydrated } from './use-hydrated';
import { useTypedBeforeHydration } from './use-typed-before-hydration';

/** `onAdopt`: told of each field the hook takes into the state. */
function PrerenderedForm({
  adopt = true,
  onAdopt = () => {},
}: {
  adopt?: boolean;
  onAdopt?: (field: string, typed: string) => void;
}) {
  const hydrated = useHydrated();
  const [name, setName] = useState('');
  const [topic, setTopic] = useState('');
  const nameField = useRef<HTMLInputElement>(null);
  const topicField = useRef<HTMLSelectElement>(null);
  const adoptInto = (field: string, setValue: (typed: string) => void) => (typed: string) => {
    onAdopt(field, typed);
    setValue(typed);
  };
  useTypedBeforeHydration(() =>
    adopt
      ? [
          { element: nameField.current, value: name, adopt: adoptInto('name', setName) },
          { element: topicField.current, value: topic, adopt: adoptInto('topic', setTopic) },
        ]
      : [],
  );
  return (
    <form>
      <label htmlFor="name">Name</label>
      <input id="name" ref={nameField} value={name} onChange={(event) => setName(event.target.value)} />
      <label htmlFor="topic">Topic</label>
      <select id="topic" ref={topicField} value={topic} onChange={(event) => setTopic(event.target.value)}>
        <option value="">Choose</option>
        <option value="billing">Billing</option>
      </select>
      {/* A render after hydration, as every prerendered form has (its button turns on). */}
      <output>{hydrated ? `state: ${name}|${topic}` : 'prerendered'}</output>
    </form>
  );
}

/** The prerendered HTML, typed into before any script ran, then hydrated. */
function typeThenHydrate(ui: React.ReactElement) {
  const container = document.createElement('div');
  container.innerHTML = renderToString(ui);
  document.body.appendChild(container);
  (container.querySelector('#name') as HTMLInputElement).value = 'Rina';
  (container.querySelector('#topic') as HTMLSelectElement).value = 'billing';
  return render(ui, { container, hydrate: true });
}

describe('useTypedBeforeHydration', () => {
  it('keeps what was typed into a prerendered form before hydration, in the fields and in the state', () => {
    const onAdopt = jest.fn();
    typeThenHydrate(<PrerenderedForm onAdopt={onAdopt} />);
    expect(onAdopt.mock.calls).toEqual([
      ['name', 'Rina'],
      ['topic', 'billing'],
    ]);
    expect(screen.getByRole('status')).toHaveTextContent('state: Rina|billing');
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue('Rina');
    expect(screen.getByRole('combobox', { name: 'Topic' })).toHaveValue('billing');
  });

  it('is what keeps it: without it, the render after hydration empties the fields', () => {
    typeThenHydrate(<PrerenderedForm adopt={false} />);
    expect(screen.getByRole('status')).toHaveTextContent('state: |');
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue('');
  });

  it('changes nothing in a form the client mounted', () => {
    const onAdopt = jest.fn();
    render(<PrerenderedForm onAdopt={onAdopt} />);
    expect(onAdopt).not.toHaveBeenCalled();
    expect(screen.getByRole('status')).toHaveTextContent('state: |');
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue('');
  });
});
