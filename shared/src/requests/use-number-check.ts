import { useCallback, useRef, useState, type FormEvent } from 'react';
import type { PhoneError } from './phone-validation';

/**
 * A number search's field and its Find: the number typed, the problem found with it (cleared as the user types
 * again), and the check on Find, which puts the cursor back in the field when the number is wrong and gives a valid
 * one, in E.164, to `onValid`. The check (and libphonenumber's metadata with it) loads on the first Find, not with
 * the page.
 */
export function useNumberCheck(country: string, onValid: (e164: string) => void) {
  const [number, setTypedNumber] = useState('');
  const [error, setError] = useState<PhoneError | null>(null);
  const [checking, setChecking] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  const setNumber = useCallback((value: string) => {
    setTypedNumber(value);
    setError(null);
  }, []);

  async function find(event: FormEvent) {
    event.preventDefault();
    if (checking) return;
    setChecking(true);
    const { checkMobileNumber } = await import('./phone-validation');
    const check = await checkMobileNumber(country, number);
    setChecking(false);
    if (!check.ok) {
      setError(check.error);
      input.current?.focus();
      return;
    }
    setError(null);
    onValid(check.e164);
  }

  return { number, setNumber, error, checking, input, find };
}
