import { useCallback, useEffect, useMemo, useRef, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { useHydrated } from '@kabari/shared/ui/use-hydrated';
import type { Locale } from '../i18n/locale';
import { callingCodes } from './calling-codes';
import { countryName } from '../i18n/country-name';
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
  disabled?: boolean;
}

/**
 * A country-code selector and a mobile number, as plain labelled controls (no antd: the home page is
 * prerendered and must stay light). Until hydration the selector holds only the chosen country, so the
 * prerendered HTML and the first client render agree; then it lists every country in the page's language.
 */
export function PhoneInput(props: PhoneInputProps) {
  const { idPrefix, locale, country, onCountryChange, value, onChange, error, inputRef, disabled } = props;
  const { t } = useTranslation(requestsNamespace);
  const hydrated = useHydrated();
  const options = useMemo(
    () =>
      hydrated
        ? countryOptions(locale)
        : [{ code: country, name: countryName(country, locale), callingCode: callingCodes[country] ?? '' }],
    [hydrated, locale, country],
  );
  const errorId = `${idPrefix}-number-error`;
  return (
    <div className="phone-input">
      <div className="phone-input__field phone-input__field--country">
        <label htmlFor={`${idPrefix}-country`}>{t('phone.country')}</label>
        <select
          id={`${idPrefix}-country`}
          name="country"
          autoComplete="tel-country-code"
          value={country}
          disabled={disabled}
          onChange={(event) => onCountryChange(event.target.value)}
        >
          {options.map((option) => (
            <option key={option.code} value={option.code}>
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
