// Test helper: render with the real i18next instance and a router at a given URL.
import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter } from '@kabari/shared/routing/router';
import { initI18n } from '@kabari/shared/i18n/create-i18n';
import { localeFromPath } from '@kabari/shared/i18n/locale';

export async function renderAt(url: string, ui: ReactElement) {
  await initI18n(localeFromPath(url));
  return render(<MemoryRouter initialEntries={[url]}>{ui}</MemoryRouter>);
}
