// Test helper: a recipient's page at an address, as the host mounts it, with its navigation recorded.
import type { ComponentType } from 'react';
import { render } from '@testing-library/react';
import type { RecipientPageProps } from '../lib/use-link';

export function renderRecipientPage(url: string, Page: ComponentType<RecipientPageProps>) {
  const navigate = jest.fn();
  const at = url.indexOf('?');
  const location = at === -1 ? { pathname: url, search: '' } : { pathname: url.slice(0, at), search: url.slice(at) };
  return { ...render(<Page location={location} navigate={navigate} />), navigate };
}
