import type { ReactNode } from 'react';
import ConfigProvider from 'antd/es/config-provider';
import App from 'antd/es/app';
import enUS from 'antd/es/locale/en_US';
import idID from 'antd/es/locale/id_ID';
import type { Locale } from '../i18n/locale';

export const kabariTheme = {
  token: {
    colorPrimary: '#0b6e4f',
    borderRadius: 8,
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  },
};

/** antd's theme, locale and message/modal context, the same in the host and in every standalone shell. */
export function AppProviders({ locale, children }: { locale: Locale; children: ReactNode }) {
  return (
    <ConfigProvider theme={kabariTheme} locale={locale === 'id' ? idID : enUS}>
      <App message={{ top: 16, duration: 4, maxCount: 3 }}>{children}</App>
    </ConfigProvider>
  );
}
