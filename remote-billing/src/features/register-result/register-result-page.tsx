import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Spin from 'antd/es/spin';
import Steps from 'antd/es/steps';
import { apiPost } from '@kabari/shared/api/api-client';
import { localeFromPath, localizePath } from '@kabari/shared/i18n/locale';
import { routePaths } from '@kabari/shared/routing/route-paths';
import { Link, useLocation, useNavigate } from '@kabari/shared/routing/router';
import { useOverlayStore } from '@kabari/shared/stores/overlay-store';
import { useUserStore } from '@kabari/shared/stores/session-store';
import { AntdScope } from '@kabari/shared/ui/antd-scope';
import { billingNamespace } from '../../i18n/billing-namespace';
import { useRegisterPolling } from '../../lib/register-query';
import './register-result-page.css';

// QRIS, e-wallet and bank transfer payments only: the QR library and the view load when one waits.
const LocalPaymentView = lazy(() => import('@kabari/shared/payments/local-payment-view'));

/** How a QRIS, e-wallet or bank transfer payment ended unpaid: the way out is to choose again, not another card. */
const localPaymentEndings = ['payment_expired', 'payment_cancelled', 'payment_denied', 'payment_amount_mismatch'];

/** How a sign-up's registration and payment can end, as this screen shows them. */
type ScreenState = 'querying' | 'created' | 'queryFailed' | 'signFailed' | 'unsubscribed' | 'unknown' | 'loginFailed';

async function logInByAuthCode(authCode: string) {
  // The server sets the session cookie; the answer names the user.
  return apiPost('/api/v1/auth/loginByAuthCode', { authCode }, { toastErrors: false });
}

/**
 * The register result screen: polls the sign-up until the payment is settled, then signs
 * the new user in with the one-time auth code and opens the dashboard with the welcome dialog.
 */
export default function RegisterResultPage() {
  const { t } = useTranslation(billingNamespace);
  const location = useLocation();
  const locale = localeFromPath(location.pathname);
  const navigate = useNavigate();
  const id = new URLSearchParams(location.search).get('id');
  const [attempt, setAttempt] = useState(0);
  const poll = useRegisterPolling(id, attempt);
  const [loginFailed, setLoginFailed] = useState(false);
  const loggingIn = useRef<string | null>(null);
  const statusRef = useRef<HTMLDivElement>(null);

  const authCode = poll.phase === 'settled' && poll.result.state === 'created' ? poll.result.authCode : undefined;

  useEffect(() => {
    if (poll.phase !== 'settled' || poll.result.state !== 'created') return;
    // The auth code is single use: one login per code, even if React runs the effect twice.
    if (!authCode || loggingIn.current === authCode) return;
    loggingIn.current = authCode;
    logInByAuthCode(authCode).then(
      ({ user }) => {
        useUserStore.getState().setUser(user);
        // /register is for visitors: the host's guard sends a signed-in user to the dashboard as the
        // token lands. The welcome dialog's route goes on top of that, once the guard has acted.
        setTimeout(() => navigate(localizePath(routePaths.successModal, locale)), 0);
      },
      () => setLoginFailed(true),
    );
  }, [poll, authCode, locale, navigate]);

  let state: ScreenState = 'querying';
  if (poll.phase === 'failed') state = 'queryFailed';
  else if (poll.phase === 'settled') {
    const settled = poll.result.state;
    if (settled === 'created') state = loginFailed || !poll.result.authCode ? 'loginFailed' : 'created';
    else if (settled === 'sign_failed') state = 'signFailed';
    else if (settled === 'unsubscribed') state = 'unsubscribed';
    else state = 'unknown';
  }

  // Screen readers hear each change of state; keyboard users land on it.
  useEffect(() => {
    if (state !== 'querying') statusRef.current?.focus();
  }, [state]);

  if (!id) {
    return (
      <section className="register-result-page" data-remote="billing" aria-labelledby="register-result-title">
        <h1 id="register-result-title">{t('registerResult.title')}</h1>
        <p>{t('registerResult.noRegistration')}</p>
        <Link to={localizePath(routePaths.home, locale)}>{t('registerResult.home')}</Link>
      </section>
    );
  }

  const stepIndex = state === 'querying' ? 0 : state === 'created' ? 2 : state === 'loginFailed' ? 2 : 0;
  const stepStatus =
    state === 'querying' || state === 'created' ? 'process' : state === 'loginFailed' ? 'error' : 'error';
  const busy = state === 'querying' || state === 'created';
  const failureReason = poll.phase === 'settled' ? (poll.result.failureMessage ?? poll.result.failureCode) : undefined;
  const localPaymentEnded = poll.phase === 'settled' && localPaymentEndings.includes(poll.result.failureCode ?? '');
  // A QRIS code or a bank's number waiting to be paid: shown again to a visitor who closed the page and came back.
  const waiting = poll.phase === 'polling' ? poll.payment : undefined;

  const retryWithAnotherCard = () => {
    useOverlayStore.getState().set('payment', true);
    navigate(localizePath(routePaths.home, locale));
  };

  return (
    <AntdScope>
      <section className="register-result-page" data-remote="billing" aria-labelledby="register-result-title">
        <h1 id="register-result-title">{t('registerResult.title')}</h1>
        <Steps
          aria-label={t('registerResult.steps.label')}
          current={stepIndex}
          status={stepStatus}
          size="small"
          items={[
            { title: t('registerResult.steps.payment') },
            { title: t('registerResult.steps.account') },
            { title: t('registerResult.steps.signIn') },
          ]}
          className="register-result-page__steps"
        />
        {waiting && (
          <Suspense
            fallback={
              <div className="register-result-page__busy">
                <Spin />
              </div>
            }
          >
            <LocalPaymentView
              payment={waiting}
              registerId={id}
              locale={locale}
              onChooseAgain={retryWithAnotherCard}
              resumable
            />
          </Suspense>
        )}
        <div
          hidden={!!waiting}
          ref={statusRef}
          tabIndex={-1}
          role="status"
          aria-live="polite"
          aria-busy={busy}
          className="register-result-page__status"
          data-state={state}
        >
          {busy ? (
            <div className="register-result-page__busy">
              <Spin />
              <p>{t(`registerResult.states.${state}`)}</p>
            </div>
          ) : (
            <Alert
              type={state === 'loginFailed' ? 'warning' : 'error'}
              showIcon
              title={t(`registerResult.states.${state}`)}
              description={
                // The server's reason (in the reader's language) for a failed, stopped or undecided payment.
                (state === 'signFailed' || state === 'unsubscribed' || state === 'unknown') && failureReason
                  ? t('registerResult.states.signFailedReason', { reason: failureReason })
                  : undefined
              }
            />
          )}
        </div>
        <div className="register-result-page__actions">
          {state === 'queryFailed' && (
            <Button type="primary" onClick={() => setAttempt((value) => value + 1)}>
              {t('registerResult.retry')}
            </Button>
          )}
          {state === 'signFailed' && (
            <Button type="primary" onClick={retryWithAnotherCard}>
              {t(localPaymentEnded ? 'registerResult.chooseAgain' : 'registerResult.tryAgain')}
            </Button>
          )}
          {state === 'loginFailed' && (
            <Button type="primary" onClick={() => useOverlayStore.getState().set('login', true)}>
              {t('registerResult.logIn')}
            </Button>
          )}
          {state === 'unsubscribed' && (
            <Link to={localizePath(routePaths.home, locale)}>{t('registerResult.startAgain')}</Link>
          )}
          {(state === 'unknown' || state === 'queryFailed' || state === 'unsubscribed') && (
            <Link to={localizePath(routePaths.contactUs, locale)}>{t('registerResult.contact')}</Link>
          )}
        </div>
      </section>
    </AntdScope>
  );
}
