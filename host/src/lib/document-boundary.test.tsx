import { useEffect } from 'react';
import { act, render } from '@testing-library/react';
import { MemoryRouter, useNavigate } from '@kabari/shared/routing/router';
import { isRecipientPage, useDocumentBoundary } from './document-boundary';

const router: { navigate?: ReturnType<typeof useNavigate> } = {};
const navigate = (to: string) => void router.navigate?.(to);

function Harness({ reload }: { reload: () => void }) {
  useDocumentBoundary(reload);
  const routerNavigate = useNavigate();
  useEffect(() => {
    router.navigate = routerNavigate;
  }, [routerNavigate]);
  return null;
}

function start(path: string): jest.Mock {
  const reload = jest.fn();
  render(
    <MemoryRouter initialEntries={[path]}>
      <Harness reload={reload} />
    </MemoryRouter>,
  );
  return reload;
}

describe('the document boundary around the recipient’s pages', () => {
  it('knows the recipient’s pages in both languages', () => {
    for (const path of ['/enter-link', '/id/enter-link', '/share', '/id/share/', '/location-failed']) {
      expect([path, isRecipientPage(path)]).toEqual([path, true]);
    }
    for (const path of ['/', '/id', '/about-us', '/dashboard/', '/register', '/no/such/page']) {
      expect([path, isRecipientPage(path)]).toEqual([path, false]);
    }
  });

  it('moves between the recipient’s pages in the same document', () => {
    const reload = start('/enter-link?token=abc');
    act(() => navigate('/share?token=abc'));
    act(() => navigate('/id/location-failed?token=abc'));
    expect(reload).not.toHaveBeenCalled();
  });

  it('loads a new document when a recipient leaves for another page', () => {
    const reload = start('/id/enter-link?token=abc');
    act(() => navigate('/id/'));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('loads a new document when another page leads to a recipient’s page', () => {
    const reload = start('/about-us');
    act(() => navigate('/dashboard/'));
    expect(reload).not.toHaveBeenCalled();
    act(() => navigate('/enter-link?token=abc'));
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
