import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showToast } from '@kabari/shared/ui/toasts';
import { operatorNamespace } from '../i18n/operator-namespace';
import { failureMessage, failureOf } from './api-failure';
import { useOperatorSession } from './operator-session';

/**
 * An operator's action: runs it, says how it went (a toast), and on a 404 lets the session decide whether the
 * operator must sign in again. Resolves true when the action went through.
 */
export function useConsoleAction(): {
  busy: boolean;
  run: (action: () => Promise<unknown>, done: string) => Promise<boolean>;
} {
  const { t } = useTranslation(operatorNamespace);
  const { checkSession, touch } = useOperatorSession();
  const [busy, setBusy] = useState(false);

  async function run(action: () => Promise<unknown>, done: string): Promise<boolean> {
    setBusy(true);
    try {
      await action();
      touch();
      showToast('success', done);
      return true;
    } catch (error) {
      const failure = failureOf(error);
      if (failure === 'gone' && (await checkSession())) return false;
      const message = failure === 'unreachable' ? t('console.loadFailed') : failureMessage(error);
      showToast('error', t('console.actionFailed', { message }));
      return false;
    } finally {
      setBusy(false);
    }
  }
  return { busy, run };
}
