import { lazy, Suspense, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from '@kabari/shared/routing/router';
import { localeFromPath } from '@kabari/shared/i18n/locale';
import { useTypedBeforeHydration } from '@kabari/shared/ui/use-typed-before-hydration';
import { useSubmitBeforeStart } from '@kabari/shared/ui/use-submit-before-start';
import { useOverlayStore } from '@kabari/shared/stores/overlay-store';
import { PhoneInput, usePhoneCountry } from '@kabari/shared/requests/phone-input';
import { usesIpCountry } from '@kabari/shared/requests/visitor-country';
import { useNumberCheck } from '@kabari/shared/requests/use-number-check';
import { searchNamespace } from '../../i18n/search-namespace';
import './number-search.css';

// antd, the API client and the modal's texts load on the first search, not with the prerendered page.
const SearchingModal = lazy(() => import('@kabari/shared/requests/searching-modal'));

/**
 * The home page's number search: country code, mobile number, Find. A valid number opens the
 * searching modal; its continue action hands the visitor to the create-account step (the `payment`
 * overlay flag, with the number as product info), which the sign-up dialog opens on.
 *
 * Prerendered, it works before the app has started: the whole country list, with the visitor's country chosen
 * by the server; what is chosen and typed is taken over at hydration, and a Find pressed meanwhile runs then.
 * Without script, Find stays disabled and the form says the search needs JavaScript.
 */
export function NumberSearch() {
  const { t } = useTranslation(searchNamespace);
  const locale = localeFromPath(useLocation().pathname);
  const { country, pickCountry, askIpCountry } = usePhoneCountry(locale);
  const [e164, setE164] = useState<string | null>(null);
  const searching = useOverlayStore((state) => state.open.searching);
  const setOverlay = useOverlayStore((state) => state.set);
  const setProductInfo = useOverlayStore((state) => state.setProductInfo);
  const { number, setNumber, error, checking, input, find } = useNumberCheck(country, (valid) => {
    setE164(valid);
    setOverlay('searching', true);
  });
  const form = useRef<HTMLFormElement>(null);
  const countryList = useRef<HTMLSelectElement>(null);
  useTypedBeforeHydration(() => [
    { element: countryList.current, value: country, adopt: pickCountry },
    { element: input.current, value: number, adopt: setNumber },
  ]);
  const heldSubmit = useSubmitBeforeStart(form);

  function close() {
    setOverlay('searching', false);
    input.current?.focus();
  }

  return (
    <form
      ref={form}
      className="number-search"
      noValidate
      onSubmit={find}
      onFocus={askIpCountry}
      onPointerDown={askIpCountry}
      aria-labelledby="number-search-title"
      {...heldSubmit.form}
    >
      <h2 id="number-search-title">{t('numberSearch.title')}</h2>
      <p className="number-search__hint">{t('numberSearch.hint')}</p>
      <div className="number-search__row">
        <PhoneInput
          idPrefix="home-search"
          locale={locale}
          country={country}
          onCountryChange={pickCountry}
          value={number}
          onChange={setNumber}
          error={error}
          inputRef={input}
          countryRef={countryList}
          visitorCountry={usesIpCountry(locale)}
        />
        <button type="submit" className="number-search__find" {...heldSubmit.submitButton}>
          {checking ? t('numberSearch.checking') : t('numberSearch.find')}
        </button>
      </div>
      <noscript>
        <p className="number-search__no-script">{t('numberSearch.needsJavaScript')}</p>
      </noscript>
      {e164 && searching && (
        <Suspense fallback={null}>
          <SearchingModal
            key={e164}
            open
            e164={e164}
            locale={locale}
            onClose={close}
            onContinue={() => {
              // The focus leaves Continue before its modal is removed: removing the focused button made the browser
              // restyle and lay out the page at once, within the click (~50 ms of a phone's main thread).
              if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
              setProductInfo({ searchedNumber: e164 });
              setOverlay('searching', false);
              setOverlay('payment', true);
            }}
          />
        </Suspense>
      )}
    </form>
  );
}
