import { useCallback, useEffect, useRef, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { Locale } from '../i18n/locale';
import { countryOptions } from './country-options';
import type { PhoneError } from '@kabari/shared/requests/phone-validation';
import { requestsNamespace } from './requests-namespace';
import { fetchIpCountry, initialCountry, usesIpCountry } from './visitor-country';
import './phone-input.css';

export interface PhoneInputProps {
  /** Prefix of the controls' ids: two phone inputs on one page must differ. */
  idPrefix: string;
  locale: Locale;
  country: string;
  onCountryChange: (country: string) => void;
  value: string;
  onChange: (value: string) => void;
  error?: PhoneError | null;
  inputRef?: Ref<HTMLInputElement>;
  countryRef?: Ref<HTMLSelectElement>;
  /**
   * The country list's default is the visitor's own: the server selects their IP address's country in the
   * prerendered page, where it finds this mark (`data-visitor-country`, server/src/web/visitor-country.ts).
   */
  visitorCountry?: boolean;
  disabled?: boolean;
}

/**
 * A country-code selector and a mobile number, as plain labelled controls (no antd: the home page is
 * prerendered and must stay light). The selector lists every country in the page's language, in the prerendered
 * HTML too, so a visitor can choose one before the app has started.
 */
export function PhoneInput(props: PhoneInputProps) {
  const {
    idPrefix,
    locale,
    country,
    onCountryChange,
    value,
    onChange,
    error,
    inputRef,
    countryRef,
    visitorCountry,
    disabled,
  } = props;
  const { t } = useTranslation(requestsNamespace);
  const options = countryOptions(locale);
  const errorId = `${idPrefix}-number-error`;
  return (
    <div className="phone-input">
      <div className="phone-input__field phone-input__field--country">
        <label htmlFor={`${idPrefix}-country`}>{t('phone.country')}</label>
        <select
          // The names come from the runtime's Intl data, which the build's Node and a visitor's browser may hold in
          // different versions: hydration keeps the prerendered options as they are (suppressHydrationWarning), and
          // only a language change, which renders a new list, replaces them.
          key={locale}
          id={`${idPrefix}-country`}
          ref={countryRef}
          name="country"
          autoComplete="tel-country-code"
          value={country}
          disabled={disabled}
          onChange={(event) => onCountryChange(event.target.value)}
          data-visitor-country={visitorCountry ? '' : undefined}
        >
          {options.map((option) => (
            <option key={option.code} value={option.code} suppressHydrationWarning>
              {`${option.name} (+${option.callingCode})`}
            </option>
          ))}
        </select>
      </div>
      <div className="phone-input__field phone-input__field--number">
        <label htmlFor={`${idPrefix}-number`}>{t('phone.number')}</label>
        <input
          id={`${idPrefix}-number`}
          ref={inputRef}
          name="number"
          type="tel"
          inputMode="tel"
          autoComplete="tel-national"
          placeholder={t('phone.numberPlaceholder')}
          value={value}
          disabled={disabled}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
        {error && (
          <p id={errorId} className="phone-input__error">
            {t(`phone.errors.${error}`)}
          </p>
        )}
      </div>
    </div>
  );
}

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
