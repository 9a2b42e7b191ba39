import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import ConfigProvider from 'antd/es/config-provider';
import enUS from 'antd/es/locale/en_US';
import idID from 'antd/es/locale/id_ID';
import { useReducedMotion } from './use-reduced-motion';

const kabariTheme = {
  token: {
    colorPrimary: '#0b6e4f',
    // Links (e.g. the login dialog's forgot-password link) in the brand colour too, not antd's blue.
    colorLink: '#0b6e4f',
    // antd's red (#ff4d4f) is 3.3:1 on white, too pale for the text of a danger button (WCAG AA asks 4.5:1).
    colorError: '#c5221f',
    // A field's help line: antd's 45% black is 3.4:1; Kabari's muted text colour instead.
    colorTextDescription: '#4a5568',
    borderRadius: 8,
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  },
};

// For someone who asked their system for less motion: antd's dialogs, toasts and menus appear and go without zooming
// or sliding (antd stills only a few of its own animations for that setting, not these).
const kabariThemeWithoutMotion = { ...kabariTheme, token: { ...kabariTheme.token, motion: false } };

/** Kabari's antd theme, without antd's motion for someone who asked their system for less. */
function useKabariTheme() {
  return useReducedMotion() ? kabariThemeWithoutMotion : kabariTheme;
}

/** antd's theme alone: for what antd renders outside the app's tree (toasts). */
export function KabariTheme({ children }: { children: ReactNode }) {
  return <ConfigProvider theme={useKabariTheme()}>{children}</ConfigProvider>;
}

/**
 * Every dialog's title keeps clear of its close button, which antd places over the header's end: a long title
 * (Indonesian ones often are) ran under it on a phone.
 */
const modalConfig = { styles: { title: { paddingInlineEnd: 28 } } };

/**
 * antd's theme and locale, around the parts of a page that use antd. Not around the whole app:
 * pages a visitor lands on (home, enter-link) must not pay for antd before they need it.
 */
export function AntdScope({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  return (
    <ConfigProvider theme={useKabariTheme()} locale={i18n.language === 'id' ? idID : enUS} modal={modalConfig}>
      {children}
    </ConfigProvider>
  );
}
