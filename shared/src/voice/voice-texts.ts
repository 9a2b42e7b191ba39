// The voice recorder's texts, for the dashboard (i18next) and the recipient's pages (no i18next) alike: a lookup as
// small as the recipient's own, over voice.en.json / voice.id.json.
import type { Locale } from '../i18n/locale';
import en from './voice.en.json';
import id from './voice.id.json';

export type VoiceTextKey = keyof typeof en;
export type VoiceText = (key: VoiceTextKey, values?: Record<string, string>) => string;

export function voiceText(locale: Locale): VoiceText {
  const table = locale === 'id' ? id : en;
  return (key, values) => table[key].replace(/\{\{(\w+)\}\}/g, (whole, name: string) => values?.[name] ?? whole);
}
