// Test helper: a text typed into a field as one input (a paste), not key by key: antd re-renders its form at every
// key, which on a busy machine made long forms take most of a test's time.
import userEvent from '@testing-library/user-event';

export async function fill(field: HTMLElement, text: string): Promise<void> {
  await userEvent.click(field);
  await userEvent.paste(text);
}
