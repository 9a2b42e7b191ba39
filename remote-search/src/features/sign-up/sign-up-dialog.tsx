import {
  startTransition,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type ComponentProps,
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
  type SyntheticEvent,
} from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { isApiError } from '@kabari/shared/api/api-error';
import { markPasswordPending } from '@kabari/shared/account/password-pending';
import { rememberSearchedNumber } from '@kabari/shared/requests/searched-number';
import { localeFromPath, localizePath, type Locale } from '@kabari/shared/i18n/locale';
import type { PaymentForm as PaymentFormType } from '@kabari/shared/payments/payment-form';
import { fetchPaymentTerms, hasNewUserDiscount, type PaymentTerms } from '@kabari/shared/payments/payment-terms';
import { formatMoney } from '@kabari/rules/money';
import { routePaths } from '@kabari/shared/routing/route-paths';
import { useLocation, useNavigate } from '@kabari/shared/routing/router';
import { useOverlayStore } from '@kabari/shared/stores/overlay-store';
import { isValidEmail } from '@kabari/shared/validation/email';
import { searchSignUpNamespace } from '../../i18n/search-sign-up-namespace';
import { signUpHandlers, type AccountFields } from './sign-up-api';
import { newSignUpAttempt } from './sign-up-attempt';
import { termsVersion } from './terms-version';
import { DISPLAY_NAME_MAX_LENGTH } from '@kabari/rules/display-name-limits';
import { displayNameNamespace, displayNameProblemText } from '@kabari/shared/validation/display-name-namespace';
import '@kabari/shared/ui/text-field.css';
import './sign-up-dialog.css';

type TextField = 'email' | 'phone' | 'displayName' | 'password';
type BoxField = 'adult' | 'terms';
type Field = TextField | BoxField;
type AccountValues = Record<TextField, string> & Record<BoxField, boolean>;
type FieldErrors = Partial<Record<Field, string>>;

/** The order the fields are shown in: the first wrong one takes the focus when Continue is refused. */
const fieldOrder: readonly Field[] = ['email', 'phone', 'displayName', 'password', 'adult', 'terms'];
const emptyAccount: AccountValues = {
  email: '',
  phone: '',
  displayName: '',
  password: '',
  adult: false,
  terms: false,
};

const trimmed = (value: string) => value.trim();

/**
 * A number as typed (national Indonesian numbers on the Indonesian site) in E.164, or null if it is not valid.
 * libphonenumber-js and its metadata (~30 KB) load when a number is first checked: the field is optional.
 */
export async function phoneE164(value: string, locale: Locale): Promise<string | null> {
  const { parsePhoneNumberFromString } = await import('libphonenumber-js');
  const parsed = parsePhoneNumberFromString(value, locale === 'id' ? 'ID' : undefined);
  return parsed?.isValid() ? parsed.number : null;
}

type PaymentFormComponent = (props: ComponentProps<typeof PaymentFormType>) => ReactNode;
let paymentFormLoad: Promise<PaymentFormComponent> | null = null;

/**
 * Step 2's form (the payment methods, the card field, PayPal; Stripe's and PayPal's scripts load only when chosen) is
 * a chunk of its own, fetched once step 1 is shown and the page is idle, or at once on step 2; a failed load is tried
 * again next time.
 */
function loadPaymentForm(): Promise<PaymentFormComponent> {
  paymentFormLoad ??= import('@kabari/shared/payments/payment-form').then(
    ({ PaymentForm }) => PaymentForm,
    (error: unknown) => {
      paymentFormLoad = null;
      throw error;
    },
  );
  return paymentFormLoad;
}

/**
 * The password's encryption (jsencrypt, ~58 KB, and its evaluation on opening): the password is optional, so it loads
 * from the password's first character, or on Continue.
 */
const loadPasswordEncryption = () => import('@kabari/shared/account/password-encryption');

/** The server's rule for a name (its lure check brings libphonenumber-js): loaded on the first check. */
const loadNameCheck = () => import('@kabari/rules/display-name').then((module) => module.displayNameProblem);

type NameProblem = Awaited<ReturnType<Awaited<ReturnType<typeof loadNameCheck>>>>;
let lastNameChecked: { name: string; problem: Promise<NameProblem> } | null = null;

/**
 * The name's verdict, the last one kept: Continue checks again the name already checked when it was left, and a
 * second search of the same text costs a phone tens of milliseconds more (the engine compiles its patterns again).
 * The check runs in a task of its own, not in the one that evaluated its code (the rule, libphonenumber-js): together
 * they made one long task.
 */
function nameProblem(name: string): Promise<NameProblem> {
  if (lastNameChecked?.name === name) return lastNameChecked.problem;
  const problem = loadNameCheck().then(async (check) => {
    await new Promise((resolve) => setTimeout(resolve));
    return check(name);
  });
  const kept = { name, problem };
  lastNameChecked = kept;
  // A check that could not load is tried again next time.
  problem.catch(() => {
    if (lastNameChecked === kept) lastNameChecked = null;
  });
  return problem;
}

/** Runs `task` when the browser is idle (a short timeout where requestIdleCallback is missing); returns a cancel. */
function whenIdle(task: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(task, { timeout: 3000 });
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(task, 200);
  return () => clearTimeout(handle);
}

/** The new user's email is taken: the server says so with a 409. */
function isEmailInUse(error: unknown): boolean {
  return isApiError(error) && error.status === 409;
}

/**
 * The sign-up dialog, opened by the overlay store's `payment` flag, e.g. by the home search
 * with productInfo {searchedNumber}. Step 1 creates the account's details, step 2 pays; a paid sign-up
 * goes to the register result screen, which polls until the account exists and signs the user in.
 *
 * Both steps are plain forms in a native modal dialog, without antd: on a phone, antd's rendering and runtime styles
 * held the main thread for most of a second on "Continue", and again on "Continue to payment".
 */
export default function SignUpDialog() {
  const { t } = useTranslation(searchSignUpNamespace);
  const { t: sayName } = useTranslation(displayNameNamespace);
  const open = useOverlayStore((state) => state.open.payment);
  const productInfo = useOverlayStore((state) => state.productInfo);
  const setOverlay = useOverlayStore((state) => state.set);
  const { pathname } = useLocation();
  const locale = localeFromPath(pathname);
  const navigate = useNavigate();
  const ids = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const inputs = useRef<Partial<Record<Field, HTMLInputElement | null>>>({});
  const [values, setValues] = useState<AccountValues>(emptyAccount);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [passwordShown, setPasswordShown] = useState(false);
  const [step, setStep] = useState<'account' | 'payment'>('account');
  const [account, setAccount] = useState<AccountFields | null>(null);
  const [attempt] = useState(newSignUpAttempt);
  const [terms, setTerms] = useState<PaymentTerms | null>(null);
  const [termsFailed, setTermsFailed] = useState(false);
  const [continuing, setContinuing] = useState(false);
  const [accountFailure, setAccountFailure] = useState<string | null>(null);
  const [PaymentForm, setPaymentForm] = useState<PaymentFormComponent | null>(null);
  const [paymentFormFailed, setPaymentFormFailed] = useState(false);
  const searchedNumber = productInfo?.searchedNumber ?? null;

  const loadTerms = useCallback(() => {
    fetchPaymentTerms(locale).then(setTerms, () => setTermsFailed(true));
  }, [locale]);

  useEffect(() => {
    if (open) loadTerms();
  }, [open, loadTerms]);

  // The native dialog follows the store's flag: modal (the page behind is inert, the focus stays inside), opened on
  // the email field.
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      element.showModal();
      inputs.current.email?.focus();
    } else if (!open && element.open) {
      element.close();
    }
  }, [open]);

  // Step 2's form: fetched while the visitor fills step 1 (the browser idle), or at once when step 2 opens.
  useEffect(() => {
    if (!open || PaymentForm || paymentFormFailed) return;
    let current = true;
    const load = () =>
      loadPaymentForm().then(
        (component) => current && setPaymentForm(() => component),
        () => current && step === 'payment' && setPaymentFormFailed(true),
      );
    if (step === 'payment') {
      void load();
      return () => {
        current = false;
      };
    }
    // One idle moment each: the two loads' work together (the scripts they add, the shared modules they look up)
    // made one long task.
    const cancelForm = whenIdle(() => void load());
    // The name's check too, so that leaving the name field answers at once.
    const cancelName = whenIdle(() => void loadNameCheck().catch(() => undefined));
    return () => {
      current = false;
      cancelForm();
      cancelName();
    };
  }, [open, step, PaymentForm, paymentFormFailed]);

  // Each step starts at its top: the step line takes the focus (and the scroll) when the step changes.
  const stepLine = useRef<HTMLParagraphElement>(null);
  const stepShown = useRef(step);
  useEffect(() => {
    if (stepShown.current === step) return;
    stepShown.current = step;
    stepLine.current?.focus();
  }, [step]);

  const retryTerms = () => {
    setTermsFailed(false);
    loadTerms();
  };
  const retryPaymentForm = () => setPaymentFormFailed(false);

  const close = () => {
    checks.current = {};
    setValues(emptyAccount);
    setErrors({});
    setPasswordShown(false);
    setStep('account');
    setAccount(null);
    setAccountFailure(null);
    setOverlay('payment', false);
  };

  // Only the close button closes the dialog, like the app's other dialogs, so that a half-filled form is not lost:
  // Escape (and a phone's back gesture, a "cancel" too) does nothing.
  const refuseCancel = (event: SyntheticEvent) => event.preventDefault();
  const refuseEscape = (event: KeyboardEvent) => {
    if (event.key === 'Escape') event.preventDefault();
  };
  // A browser may still close a modal dialog on a repeated Escape without asking: it is shown again, as it was.
  const keepOpen = () => {
    const element = dialog.current;
    if (element && !element.open && useOverlayStore.getState().open.payment) element.showModal();
  };

  /** What is wrong with a field's value, in words; null if nothing. */
  const problemOf = async (field: Field, account: AccountValues): Promise<string | null> => {
    switch (field) {
      case 'email': {
        const email = trimmed(account.email);
        if (!email) return t('errors.enterEmail');
        return isValidEmail(email) ? null : t('errors.validEmail');
      }
      case 'phone': {
        const phone = trimmed(account.phone);
        return phone && (await phoneE164(phone, locale)) === null ? t('errors.validPhone') : null;
      }
      case 'displayName': {
        // The server's rule for a name, in the page's language: no link, no phone number, no symbols.
        const problem = await nameProblem(trimmed(account.displayName));
        if (!problem) return null;
        return problem === 'empty' ? t('errors.enterName') : displayNameProblemText(sayName, problem);
      }
      case 'password': {
        const password = trimmed(account.password);
        return password && password.length < 8 ? t('errors.passwordShort') : null;
      }
      case 'adult':
        return account.adult ? null : t('errors.adult');
      case 'terms':
        return account.terms ? null : t('errors.terms');
    }
  };

  // Each field's latest check wins: an answer that comes back after a newer check, or after the dialog was closed,
  // is dropped.
  const checkRuns = useRef(0);
  const checks = useRef<Partial<Record<Field, number>>>({});
  const check = async (field: Field, account: AccountValues): Promise<string | null> => {
    checkRuns.current += 1;
    const run = checkRuns.current;
    checks.current[field] = run;
    // A check that cannot load (the name's rule, the phone's parser) leaves the verdict to the server.
    const problem = await problemOf(field, account).catch(() => null);
    if (checks.current[field] === run) {
      setErrors((current) => {
        if ((current[field] ?? null) === problem) return current;
        const next = { ...current };
        if (problem) next[field] = problem;
        else delete next[field];
        return next;
      });
    }
    return problem;
  };

  // A field is checked when it is left. Left by pressing on something below it (a checkbox, Continue), its message
  // waits until the press is over: shown at once, it would move what is under the pointer and lose the click.
  const pressing = useRef(false);
  const waitingChecks = useRef<(() => void)[]>([]);
  const checkWhenLeft = (field: TextField) => {
    const run = () => void check(field, values);
    if (pressing.current) waitingChecks.current.push(run);
    else run();
  };
  const pressStarted = () => {
    pressing.current = true;
  };
  const pressEnded = () => {
    // After the click that ends the press, which comes right after pointerup.
    setTimeout(() => {
      pressing.current = false;
      const runs = waitingChecks.current;
      waitingChecks.current = [];
      runs.forEach((run) => run());
    });
  };

  const setText = (field: TextField, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    // Ready by Continue; a failed load is tried again there, and refused with the encryption's message.
    if (field === 'password' && value) loadPasswordEncryption().catch(() => undefined);
  };
  const setBox = (field: BoxField, checked: boolean) => {
    const next = { ...values, [field]: checked };
    setValues(next);
    void check(field, next);
  };

  const continueToPayment = async (event: FormEvent) => {
    event.preventDefault();
    if (continuing) return;
    setContinuing(true);
    setAccountFailure(null);
    try {
      const problems = await Promise.all(fieldOrder.map((field) => check(field, values)));
      const firstWrong = fieldOrder.find((_field, index) => problems[index]);
      if (firstWrong) {
        inputs.current[firstWrong]?.focus();
        return;
      }
      const phone = trimmed(values.phone);
      const password = trimmed(values.password);
      const phoneNumber = phone ? await phoneE164(phone, locale) : null;
      const fields: AccountFields = {
        email: trimmed(values.email),
        displayName: trimmed(values.displayName),
        ...(phoneNumber ? { phone: phoneNumber } : {}),
        locale,
        ageConfirmed: true,
        termsAccepted: true,
        termsVersion,
        ...(password ? { password: await (await loadPasswordEncryption()).encryptPassword(password) } : {}),
      };
      // The number searched before the account: the dashboard offers it once paid (even after a payment redirect).
      rememberSearchedNumber(searchedNumber);
      // Step 2 renders in slices between the browser's other work, not within the click's task: rendered at once, the
      // payment form held a phone's main thread for most of a tenth of a second.
      startTransition(() => {
        setAccount(fields);
        setStep('payment');
      });
    } catch (error) {
      // Anything but the server's answer (the password's encryption refused, or its code not loaded) is the
      // encryption's failure.
      setAccountFailure(isApiError(error) ? error.message : t('errors.encryption'));
    } finally {
      setContinuing(false);
    }
  };

  /** A taken email is found when paying: back to step 1, with the message on the email field. */
  const onPaymentFailure = (error: unknown) => {
    if (!isEmailInUse(error)) return false;
    setStep('account');
    delete checks.current.email;
    setErrors((current) => ({ ...current, email: t('errors.emailInUse') }));
    return true;
  };

  const paid = (registerId: string) => {
    markPasswordPending(!account?.password);
    navigate(`${localizePath(routePaths.register, locale)}?id=${encodeURIComponent(registerId)}`);
    close();
  };

  const link = (path: string) => <a href={localizePath(path, locale)} target="_blank" rel="noopener noreferrer" />;
  // Made once per language, not on each keystroke: Trans parses its text's tags each time it renders, tens of
  // milliseconds on a phone.
  const termsLabel = useMemo(
    () => (
      <Trans
        t={t}
        i18nKey="terms"
        components={{ terms: link(routePaths.termsOfUse), privacy: link(routePaths.privacyPolicy) }}
      />
    ),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- link only reads the locale
    [t, locale],
  );
  const idOf = (field: Field) => `${ids}-${field}`;
  /** What ties a control to its error and its hint. */
  const control = (field: Field, hint: boolean) => {
    const describedBy = [errors[field] ? `${idOf(field)}-error` : '', hint ? `${idOf(field)}-hint` : '']
      .filter(Boolean)
      .join(' ');
    return {
      id: idOf(field),
      name: field,
      'aria-invalid': errors[field] ? true : undefined,
      'aria-describedby': describedBy || undefined,
    };
  };
  const errorOf = (field: Field) =>
    errors[field] ? (
      <p id={`${idOf(field)}-error`} className="sign-up-dialog__error">
        {errors[field]}
      </p>
    ) : null;
  const hintOf = (field: Field, hint: string) => (
    <p id={`${idOf(field)}-hint`} className="sign-up-dialog__hint">
      {hint}
    </p>
  );
  const textField = (field: TextField) => ({
    ...control(field, field !== 'phone'),
    className: 'text-field',
    value: values[field],
    onChange: (event: { target: { value: string } }) => setText(field, event.target.value),
  });

  return (
    <dialog
      ref={dialog}
      className="sign-up-dialog"
      aria-labelledby={`${ids}-title`}
      onCancel={refuseCancel}
      onKeyDown={refuseEscape}
      onClose={keepOpen}
      onPointerDown={pressStarted}
      onPointerUp={pressEnded}
      onPointerCancel={pressEnded}
    >
      <div className="sign-up-dialog__header">
        <h2 id={`${ids}-title`} className="sign-up-dialog__title">
          {t('title')}
        </h2>
        <button type="button" className="sign-up-dialog__close" aria-label={t('close')} onClick={close}>
          <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
            <path d="M3 3l10 10M13 3L3 13" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
          </svg>
        </button>
      </div>
      <p className="sign-up-dialog__step" aria-live="polite" ref={stepLine} tabIndex={-1}>
        {t(step === 'account' ? 'step.account' : 'step.payment')}
      </p>
      {searchedNumber && step === 'account' && (
        <p className="sign-up-dialog__searched">{t('searchedFor', { number: searchedNumber })}</p>
      )}

      <form
        name="sign-up"
        className="sign-up-dialog__form"
        noValidate
        hidden={step !== 'account'}
        onSubmit={(event) => void continueToPayment(event)}
      >
        <div className="sign-up-dialog__field">
          <label htmlFor={idOf('email')}>{t('email')}</label>
          <input
            {...textField('email')}
            ref={(element) => {
              inputs.current.email = element;
            }}
            onBlur={() => checkWhenLeft('email')}
            type="email"
            inputMode="email"
            autoComplete="email"
            maxLength={254}
          />
          {errorOf('email')}
          {hintOf('email', t('emailHint'))}
        </div>
        <div className="sign-up-dialog__field">
          <label htmlFor={idOf('phone')}>{t('phone')}</label>
          <input
            {...textField('phone')}
            ref={(element) => {
              inputs.current.phone = element;
            }}
            onBlur={() => checkWhenLeft('phone')}
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            maxLength={32}
          />
          {errorOf('phone')}
        </div>
        <div className="sign-up-dialog__field">
          <label htmlFor={idOf('displayName')}>{t('displayName')}</label>
          <input
            {...textField('displayName')}
            ref={(element) => {
              inputs.current.displayName = element;
            }}
            onBlur={() => checkWhenLeft('displayName')}
            type="text"
            autoComplete="name"
            maxLength={DISPLAY_NAME_MAX_LENGTH}
          />
          {errorOf('displayName')}
          {hintOf('displayName', t('displayNameHint'))}
        </div>
        <div className="sign-up-dialog__field">
          <label htmlFor={idOf('password')}>{t('password')}</label>
          <div className="sign-up-dialog__password">
            <input
              {...textField('password')}
              ref={(element) => {
                inputs.current.password = element;
              }}
              onBlur={() => checkWhenLeft('password')}
              type={passwordShown ? 'text' : 'password'}
              autoComplete="new-password"
              maxLength={100}
            />
            <button
              type="button"
              className="sign-up-dialog__reveal"
              aria-label={t('showPassword')}
              aria-pressed={passwordShown}
              aria-controls={idOf('password')}
              onClick={() => setPasswordShown((shown) => !shown)}
            >
              <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
                <path
                  d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="1.8"
                />
                <circle cx="12" cy="12" r="3" fill="none" stroke="currentColor" strokeWidth="1.8" />
                {!passwordShown && <path d="M4 20L20 4" stroke="currentColor" strokeWidth="1.8" />}
              </svg>
            </button>
          </div>
          {errorOf('password')}
          {hintOf('password', t('passwordHint'))}
        </div>

        {terms && hasNewUserDiscount(terms) && (
          <p className="sign-up-dialog__discount">
            {t('discount', {
              first: formatMoney(terms.firstDayDebitAmount, terms.currencyCode, locale),
              amount: formatMoney(terms.amount, terms.currencyCode, locale),
              period: terms.period,
            })}
          </p>
        )}

        <div className="sign-up-dialog__field sign-up-dialog__field--box">
          <input
            {...control('adult', false)}
            ref={(element) => {
              inputs.current.adult = element;
            }}
            type="checkbox"
            checked={values.adult}
            onChange={(event) => setBox('adult', event.target.checked)}
          />
          <label htmlFor={idOf('adult')}>{t('adult')}</label>
          {errorOf('adult')}
        </div>
        <div className="sign-up-dialog__field sign-up-dialog__field--box">
          <input
            {...control('terms', false)}
            ref={(element) => {
              inputs.current.terms = element;
            }}
            type="checkbox"
            checked={values.terms}
            onChange={(event) => setBox('terms', event.target.checked)}
          />
          <label htmlFor={idOf('terms')}>{termsLabel}</label>
          {errorOf('terms')}
        </div>
        {accountFailure && (
          <p role="alert" className="sign-up-dialog__alert sign-up-dialog__alert--error">
            {accountFailure}
          </p>
        )}
        <button
          type="submit"
          className="sign-up-dialog__continue"
          aria-disabled={continuing || undefined}
          data-busy={continuing || undefined}
        >
          {t('continue')}
        </button>
      </form>

      {step === 'payment' && (
        <div>
          <button type="button" onClick={() => setStep('account')} className="sign-up-dialog__back">
            {t('back')}
          </button>
          {terms && account && PaymentForm ? (
            <PaymentForm
              name="sign-up-payment"
              terms={terms}
              locale={locale}
              handlers={signUpHandlers(account, attempt)}
              onPaid={paid}
              onFailure={onPaymentFailure}
            />
          ) : termsFailed ? (
            <div role="alert" className="sign-up-dialog__alert sign-up-dialog__alert--error">
              <p>{t('priceFailed')}</p>
              <button type="button" className="sign-up-dialog__retry" onClick={retryTerms}>
                {t('retry')}
              </button>
            </div>
          ) : paymentFormFailed ? (
            <div role="alert" className="sign-up-dialog__alert sign-up-dialog__alert--error">
              <p>{t('paymentFailed')}</p>
              <button type="button" className="sign-up-dialog__retry" onClick={retryPaymentForm}>
                {t('retry')}
              </button>
            </div>
          ) : (
            <p role="status" className="sign-up-dialog__loading">
              {t(terms ? 'loadingPayment' : 'loadingPrice')}
            </p>
          )}
        </div>
      )}
    </dialog>
  );
}
