import { useCallback, useEffect, useRef, useState } from 'react';
import type { Locale } from '../i18n/locale';
import { fetchIpCountry, initialCountry, usesIpCountry } from './visitor-country';

/**
 * The selected country: Indonesia under /id, otherwise the visitor's IP country once known, else the
 * United States. A country the user picked is never replaced. `askIpCountry` starts the IP look-up: the
 * home page calls it on the first touch of the search form (keeping the API client off its first load),
 * the dashboard at once (`eager`).
 */
export function usePhoneCountry(locale: Locale, { eager = false } = {}) {
  const [country, setCountry] = useState(() => initialCountry(locale));
  const picked = useRef(false);
  const asked = useRef(false);

  const askIpCountry = useCallback(() => {
    if (asked.current || !usesIpCountry(locale)) return;
    asked.current = true;
    void fetchIpCountry().then((code) => {
      if (code && !picked.current) setCountry(code);
    });
  }, [locale]);

  useEffect(() => {
    if (eager) askIpCountry();
  }, [eager, askIpCountry]);

  const pickCountry = useCallback((code: string) => {
    picked.current = true;
    setCountry(code);
  }, []);

  return { country, pickCountry, askIpCountry };
}
