import { useCallback, useEffect, useState } from 'react';
import { failureOf, failureMessage, type Failure } from './api-failure';
import { useOperatorSession } from './operator-session';

export type ConsoleData<T> =
  | { phase: 'loading' }
  | { phase: 'ready'; data: T }
  | { phase: 'failed'; failure: Failure | 'missing'; message: string };

/**
 * A console read: loads on mount and whenever `key` changes, and again on `reload()`. A 404 asks the session
 * whether it has ended (then the console goes to sign-in); otherwise the thing asked for is missing.
 */
export function useConsoleData<T>(load: () => Promise<T>, key: string): ConsoleData<T> & { reload: () => void } {
  const { checkSession, touch } = useOperatorSession();
  const [attempt, setAttempt] = useState(0);
  const loading = `${key}#${attempt}`;
  // What the last load answered, for which key and attempt: anything older reads as loading.
  const [settled, setSettled] = useState<{ loaded: string; state: ConsoleData<T> } | null>(null);

  useEffect(() => {
    let current = true;
    load().then(
      (data) => {
        if (!current) return;
        touch();
        setSettled({ loaded: loading, state: { phase: 'ready', data } });
      },
      async (error: unknown) => {
        const failure = failureOf(error);
        const ended = failure === 'gone' && (await checkSession());
        if (current && !ended) {
          const message = failureMessage(error);
          setSettled({
            loaded: loading,
            state: { phase: 'failed', failure: failure === 'gone' ? 'missing' : failure, message },
          });
        }
      },
    );
    return () => {
      current = false;
    };
    // `load` is a new function at every render; `key` names what it loads.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loading]);

  const state: ConsoleData<T> = settled?.loaded === loading ? settled.state : { phase: 'loading' };
  const reload = useCallback(() => setAttempt((value) => value + 1), []);
  return { ...state, reload };
}
