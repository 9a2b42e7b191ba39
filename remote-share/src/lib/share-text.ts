// The recipient's pages in English and Indonesian without i18next: these pages open from an SMS on whatever phone
// the recipient has, and i18next with react-i18next weighs ~26 KB gzip, more than the pages themselves. The texts
// stay in share.en.json / share.id.json (the parity test checks them); only the lookup is this small function.
import { createContext, useContext } from 'react';
import type { Locale } from '@kabari/shared/i18n/locale';
import en from '../i18n/share.en.json';
import id from '../i18n/share.id.json';

type Texts = typeof en;

/** Every key of the texts, dotted ("enterLink.asks"), typed from the English file. */
type KeyOf<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : KeyOf<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

export type ShareTextKey = KeyOf<Texts>;
export type ShareText = (key: ShareTextKey, values?: Record<string, string | number>) => string;

const texts: Record<Locale, Texts> = { en, id };

/** The page's texts in a language: `{{name}}` in a text is replaced by `values.name` (plain text, never HTML). */
export function shareText(locale: Locale): ShareText {
  const table = texts[locale] ?? texts.en;
  return (key, values) => {
    let found: unknown = table;
    for (const part of key.split('.')) found = (found as Record<string, unknown> | undefined)?.[part];
    const text = typeof found === 'string' ? found : key;
    return values ? text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => String(values[name] ?? whole)) : text;
  };
}

/** The language of the recipient's page being shown; components below a page read it from here. */
export const RecipientLocale = createContext<Locale>('en');

/** The texts of the page's language. */
export function useShareText(): ShareText {
  return shareText(useContext(RecipientLocale));
}
