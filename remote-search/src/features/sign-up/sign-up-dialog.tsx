import { useCallback, useEffect, useRef, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Form from 'antd/es/form';
import Input, { type InputRef } from 'antd/es/input';
import Modal from 'antd/es/modal';
import Spin from 'antd/es/spin';
import { isApiError } from '@kabari/shared/api/api-error';
import { encryptPassword, PasswordEncryptionError } from '@kabari/shared/account/password-encryption';
import { markPasswordPending } from '@kabari/shared/account/password-pending';
import { rememberSearchedNumber } from '@kabari/shared/requests/searched-number';
import { localeFromPath, localizePath, type Locale } from '@kabari/shared/i18n/locale';
import type { PaymentForm as PaymentFormType } from '@kabari/shared/payments/payment-form';
import { fetchPaymentTerms, hasNewUserDiscount, type PaymentTerms } from '@kabari/shared/payments/payment-terms';
import { formatMoney } from '@kabari/rules/money';
import { routePaths } from '@kabari/shared/routing/route-paths';
import { useLocation, useNavigate } from '@kabari/shared/routing/router';
import { useOverlayStore } from '@kabari/shared/stores/overlay-store';
import { AntdScope } from '@kabari/shared/ui/antd-scope';
import { isValidEmail } from '@kabari/shared/validation/email';
import { searchSignUpNamespace } from '../../i18n/search-sign-up-namespace';
import { signUpHandlers, type AccountFields } from './sign-up-api';
import { newSignUpAttempt } from './sign-up-attempt';
import { termsVersion } from './terms-version';
import { DISPLAY_NAME_MAX_LENGTH } from '@kabari/rules/display-name-limits';
import { displayNameNamespace, displayNameProblemText } from '@kabari/shared/validation/display-name-namespace';
import './sign-up-dialog.css';

interface AccountValues {
  email?: string;
  phone?: string;
  displayName?: string;
  password?: string;
  adult?: boolean;
  terms?: boolean;
}

const trimmed = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/**
 * A number as typed (national Indonesian numbers on the Indonesian site) in E.164, or null if it is not valid.
 * libphonenumber-js and its metadata (~30 KB) load when a number is first checked: the field is optional.
 */
export async function phoneE164(value: string, locale: Locale): Promise<string | null> {
  const { parsePhoneNumberFromString } = await import('libphonenumber-js');
  const parsed = parsePhoneNumberFromString(value, locale === 'id' ? 'ID' : undefined);
  return parsed?.isValid() ? parsed.number : null;
}

type PaymentFormComponent = typeof PaymentFormType;
let paymentFormLoad: Promise<PaymentFormComponent> | null = null;

/**
 * Step 2's form (the payment methods, the QR code, the card field, PayPal) is a chunk of its own: the first click
 * then loads and runs only step 1. It is fetched once step 1 is shown and the page is idle, or at once on step 2;
 * a failed load is tried again next time.
 */
function loadPaymentForm(): Promise<PaymentFormComponent> {
  paymentFormLoad ??= import('@kabari/shared/payments/payment-form').then(
    (module) => module.PaymentForm,
    (error: unknown) => {
      paymentFormLoad = null;
      throw error;
    },
  );
  return paymentFormLoad;
}

/** The server's rule for a name (its lure check brings libphonenumber-js): loaded on the first check. */
const loadNameCheck = () => import('@kabari/rules/display-name').then((module) => module.displayNameProblem);

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
  const [form] = Form.useForm<AccountValues>();
  const emailInput = useRef<InputRef>(null);
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
    const cancel = whenIdle(() => {
      void load();
      // The name's check too, so that leaving the name field answers at once.
      loadNameCheck().catch(() => undefined);
    });
    return () => {
      current = false;
      cancel();
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
    form.resetFields();
    setStep('account');
    setAccount(null);
    setAccountFailure(null);
    setOverlay('payment', false);
  };

  const continueToPayment = async () => {
    let values: AccountValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setContinuing(true);
    setAccountFailure(null);
    try {
      const phone = trimmed(values.phone);
      const password = trimmed(values.password);
      const phoneNumber = phone ? await phoneE164(phone, locale) : null;
      setAccount({
        email: trimmed(values.email),
        displayName: trimmed(values.displayName),
        ...(phoneNumber ? { phone: phoneNumber } : {}),
        locale,
        ageConfirmed: true,
        termsAccepted: true,
        termsVersion,
        ...(password ? { password: await encryptPassword(password) } : {}),
      });
      // The number searched before the account: the dashboard offers it once paid (even after a payment redirect).
      rememberSearchedNumber(searchedNumber);
      setStep('payment');
    } catch (error) {
      setAccountFailure(
        error instanceof PasswordEncryptionError || !isApiError(error) ? t('errors.encryption') : error.message,
      );
    } finally {
      setContinuing(false);
    }
  };

  /** A taken email is found when paying: back to step 1, with the message on the email field. */
  const onPaymentFailure = (error: unknown) => {
    if (!isEmailInUse(error)) return false;
    setStep('account');
    form.setFields([{ name: 'email', errors: [t('errors.emailInUse')] }]);
    return true;
  };

  const paid = (registerId: string) => {
    markPasswordPending(!account?.password);
    navigate(`${localizePath(routePaths.register, locale)}?id=${encodeURIComponent(registerId)}`);
    close();
  };

  const check = (valid: (value: string) => boolean, message: string) => ({
    validator: (_rule: unknown, value: unknown) =>
      valid(trimmed(value)) ? Promise.resolve() : Promise.reject(new Error(message)),
  });
  const checked = (message: string) => ({
    validator: (_rule: unknown, value: unknown) =>
      value === true ? Promise.resolve() : Promise.reject(new Error(message)),
  });
  const link = (path: string) => <a href={localizePath(path, locale)} target="_blank" rel="noopener noreferrer" />;

  return (
    <AntdScope>
      <Modal
        open={open}
        title={t('title')}
        onCancel={close}
        footer={null}
        // Like the app's other dialogs: only the close button closes it, so a half-filled form is not lost.
        keyboard={false}
        mask={{ closable: false }}
        closable={{ 'aria-label': t('close') }}
        afterOpenChange={(opened) => opened && step === 'account' && emailInput.current?.focus()}
        width={520}
        className="sign-up-dialog"
      >
        <p className="sign-up-dialog__step" aria-live="polite" ref={stepLine} tabIndex={-1}>
          {t(step === 'account' ? 'step.account' : 'step.payment')}
        </p>
        {searchedNumber && step === 'account' && (
          <p className="sign-up-dialog__searched">{t('searchedFor', { number: searchedNumber })}</p>
        )}

        <div hidden={step !== 'account'}>
          <Form
            name="sign-up"
            form={form}
            layout="vertical"
            requiredMark={false}
            noValidate
            onFinish={() => void continueToPayment()}
          >
            <Form.Item
              name="email"
              label={t('email')}
              extra={t('emailHint')}
              validateTrigger="onBlur"
              rules={[
                check(Boolean, t('errors.enterEmail')),
                check((value) => !value || isValidEmail(value), t('errors.validEmail')),
              ]}
            >
              <Input ref={emailInput} type="email" inputMode="email" autoComplete="email" maxLength={254} />
            </Form.Item>
            <Form.Item
              name="phone"
              label={t('phone')}
              validateTrigger="onBlur"
              rules={[
                {
                  validator: async (_rule: unknown, value: unknown) => {
                    const phone = trimmed(value);
                    if (phone && (await phoneE164(phone, locale)) === null) throw new Error(t('errors.validPhone'));
                  },
                },
              ]}
            >
              <Input type="tel" inputMode="tel" autoComplete="tel" maxLength={32} />
            </Form.Item>
            <Form.Item
              name="displayName"
              label={t('displayName')}
              extra={t('displayNameHint')}
              validateTrigger="onBlur"
              rules={[
                {
                  // The server's rule for a name, in the page's language: no link, no phone number, no symbols.
                  validator: async (_rule: unknown, value: unknown) => {
                    const problem = (await loadNameCheck())(trimmed(value));
                    if (!problem) return;
                    throw new Error(
                      problem === 'empty' ? t('errors.enterName') : displayNameProblemText(sayName, problem),
                    );
                  },
                },
              ]}
            >
              <Input autoComplete="name" maxLength={DISPLAY_NAME_MAX_LENGTH} />
            </Form.Item>
            <Form.Item
              name="password"
              label={t('password')}
              extra={t('passwordHint')}
              validateTrigger="onBlur"
              rules={[check((value) => !value || value.length >= 8, t('errors.passwordShort'))]}
            >
              <Input.Password autoComplete="new-password" maxLength={100} />
            </Form.Item>

            {terms && hasNewUserDiscount(terms) && (
              <Alert
                type="success"
                className="sign-up-dialog__discount"
                title={t('discount', {
                  first: formatMoney(terms.firstDayDebitAmount, terms.currencyCode, locale),
                  amount: formatMoney(terms.amount, terms.currencyCode, locale),
                  period: terms.period,
                })}
              />
            )}

            <Form.Item name="adult" valuePropName="checked" rules={[checked(t('errors.adult'))]}>
              <Checkbox>{t('adult')}</Checkbox>
            </Form.Item>
            <Form.Item name="terms" valuePropName="checked" rules={[checked(t('errors.terms'))]}>
              <Checkbox>
                <Trans
                  t={t}
                  i18nKey="terms"
                  components={{ terms: link(routePaths.termsOfUse), privacy: link(routePaths.privacyPolicy) }}
                />
              </Checkbox>
            </Form.Item>
            {accountFailure && (
              <Alert type="error" role="alert" title={accountFailure} className="sign-up-dialog__failure" />
            )}
            <Button type="primary" htmlType="submit" block size="large" loading={continuing}>
              {t('continue')}
            </Button>
          </Form>
        </div>

        {step === 'payment' && (
          <div>
            <Button type="link" onClick={() => setStep('account')} className="sign-up-dialog__back">
              {t('back')}
            </Button>
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
              <Alert
                type="error"
                role="alert"
                title={t('priceFailed')}
                action={<Button onClick={retryTerms}>{t('retry')}</Button>}
              />
            ) : paymentFormFailed ? (
              <Alert
                type="error"
                role="alert"
                title={t('paymentFailed')}
                action={<Button onClick={retryPaymentForm}>{t('retry')}</Button>}
              />
            ) : (
              <Spin description={t(terms ? 'loadingPayment' : 'loadingPrice')} />
            )}
          </div>
        )}
      </Modal>
    </AntdScope>
  );
}
