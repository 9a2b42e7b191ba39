import { screen, within } from '@testing-library/react';
import { renderAt } from '../../../../jest/render-with-i18n';
import { CookieNotice } from './cookie-notice';

/** Every item says why, for how long, where and of which kind, in words (not a missing translation's key). */
function expectEveryItemExplained() {
  const items = screen.getAllByRole('listitem');
  expect(items).toHaveLength(14);
  for (const item of items) {
    const answers = within(item)
      .getAllByRole('definition')
      .map((answer) => answer.textContent ?? '');
    expect(answers).toHaveLength(4);
    for (const answer of answers) expect(answer).toMatch(/^(?!notice\.)\S.*\S$/s);
  }
}

describe('CookieNotice', () => {
  it('lists every cookie and storage item Kabari really sets, with why and for how long', async () => {
    await renderAt('/cookies-policy', <CookieNotice />);
    const names = screen.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent);
    expect(names).toEqual([
      'token',
      'locale',
      'G_P_L_Visitor_Id',
      'FB_G_P_L_Visitor_Id',
      'kabari-user',
      'kabari-visitor-reported',
      'kabari-reloaded-at',
      'kabari-password-pending',
      'kabari-searched-number',
      'kabari-share:<token>',
      'kabari-shared-here',
      'kabari-reporter',
      'kabari-overview',
      'kabari_operator',
    ]);
    const locale = screen.getAllByRole('listitem')[1] as HTMLElement;
    expect(within(locale).getByText('365 days')).toBeInTheDocument();
    expect(within(locale).getByText('Preference')).toBeInTheDocument();
    const visitor = screen.getAllByRole('listitem')[2] as HTMLElement;
    expect(within(visitor).getByText('1 year')).toBeInTheDocument();
    expect(within(visitor).getByText(/device report/)).toBeInTheDocument();
    expectEveryItemExplained();
  });

  it('explains them in Indonesian under /id', async () => {
    await renderAt('/id/cookies-policy', <CookieNotice />);
    expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent(
      'Apa saja yang disimpan Kabari di peramban Anda',
    );
    expect(screen.getAllByText('365 hari')).toHaveLength(1);
    expect(screen.getAllByText('Penyimpanan peramban (localStorage)')).toHaveLength(2);
    expectEveryItemExplained();
  });
});
