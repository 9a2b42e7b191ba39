import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { defaultLocale, type Locale } from './locale';
import { addPendingNamespaces } from './register-namespace';
import commonEn from './common.en.json';
import commonId from './common.id.json';

/** Initialises the one i18next instance: the host calls this, and so does a remote's standalone shell. */
export async function initI18n(locale: Locale): Promise<typeof i18n> {
  if (!i18n.isInitialized) {
    await i18n.use(initReactI18next).init({
      lng: locale,
      fallbackLng: defaultLocale,
      supportedLngs: ['en', 'id'],
      ns: ['common'],
      defaultNS: 'common',
      resources: { en: { common: commonEn }, id: { common: commonId } },
      interpolation: { escapeValue: false },
      returnNull: false,
    });
    addPendingNamespaces();
  } else if (i18n.language !== locale) {
    await i18n.changeLanguage(locale);
  }
  return i18n;
}
