import { useEffect } from 'react';
import { act, render } from '@testing-library/react';
import { MemoryRouter, useNavigate } from '@kabari/shared/routing/router';
import { keepScrollState, useScrollOnNavigation } from './scroll-on-navigation';

const router: { navigate?: ReturnType<typeof useNavigate> } = {};
const navigate = (to: string, options?: { state?: unknown }) => void router.navigate?.(to, options);

function Harness() {
  useScrollOnNavigation();
  const routerNavigate = useNavigate();
  useEffect(() => {
    router.navigate = routerNavigate;
  }, [routerNavigate]);
  return <h2 id="faq">FAQ</h2>;
}

describe('scroll on navigation', () => {
  const scrollTo = jest.fn();
  const scrollIntoView = jest.fn();

  beforeEach(() => {
    scrollTo.mockReset();
    scrollIntoView.mockReset();
    window.scrollTo = scrollTo as unknown as typeof window.scrollTo;
    Element.prototype.scrollIntoView = scrollIntoView;
    render(
      <MemoryRouter initialEntries={['/']}>
        <Harness />
      </MemoryRouter>,
    );
  });

  it('leaves the first page of a visit to the browser', () => {
    expect(scrollTo).not.toHaveBeenCalled();
  });

  it('scrolls to the top on a new page', () => {
    act(() => navigate('/about-us'));
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
  });

  it('scrolls to the hash target when there is one', () => {
    act(() => navigate('/faqs#faq'));
    expect(scrollIntoView).toHaveBeenCalledTimes(1);
    expect(scrollTo).not.toHaveBeenCalled();
  });

  it('survives a malformed hash', () => {
    act(() => navigate('/faqs#%E0%A4%A'));
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
  });

  it('does not move for a changed query string', () => {
    act(() => navigate('/?source=sms'));
    expect(scrollTo).not.toHaveBeenCalled();
  });

  it('keeps the position on a route that opts out, and for a navigation that asks to', () => {
    act(() => navigate('/dashboard/modules/MySubscription'));
    act(() => navigate('/dashboard/', { state: keepScrollState }));
    expect(scrollTo).not.toHaveBeenCalled();
    act(() => navigate('/id/faqs'));
    expect(scrollTo).toHaveBeenCalledTimes(1);
  });
});
