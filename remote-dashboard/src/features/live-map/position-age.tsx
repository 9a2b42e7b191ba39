import { useCallback, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import type { Locale } from '@kabari/shared/i18n/locale';
import { LIVE_POSITION_EVERY_MS } from '@kabari/shared/requests/live-sharing';
import { dashboardLiveNamespace } from '../../i18n/dashboard-live-namespace';

/**
 * While live, a position is old once the next one is late. A fix may already be one interval old when the page takes
 * it (it accepts the browser's recent fix), and the next is sent one interval later: past two, one is missing.
 */
export const LIVE_POSITION_OLD_AFTER_MS = 2 * LIVE_POSITION_EVERY_MS;

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
// Under a minute the age is written in steps of this many seconds, so it changes no more often.
const SECONDS_STEP = 5 * SECOND;

/** How long one step of the label lasts at this age: the label changes only when a step ends. */
function stepAt(age: number): number {
  if (age < MINUTE) return SECONDS_STEP;
  if (age < HOUR) return MINUTE;
  if (age < DAY) return HOUR;
  return DAY;
}

/** The age as the label writes it: rounded down to its step. */
function shownAge(age: number): number {
  return age - (age % stepAt(age));
}

/** "just now", "25 seconds ago", "2 minutes ago", "3 hours ago", "2 days ago", in the reader's language. */
function ageText(shown: number, locale: Locale, justNow: string): string {
  if (shown < SECONDS_STEP) return justNow;
  const format = new Intl.RelativeTimeFormat(locale === 'id' ? 'id' : 'en', { numeric: 'always' });
  if (shown < MINUTE) return format.format(-shown / SECOND, 'second');
  if (shown < HOUR) return format.format(-shown / MINUTE, 'minute');
  if (shown < DAY) return format.format(-shown / HOUR, 'hour');
  return format.format(-shown / DAY, 'day');
}

/** The shown age and whether it is old, as one value that changes only when the label or the mark does. */
function usePositionAge(recordedAt: string, live: boolean): { shown: number; old: boolean } {
  const then = Date.parse(recordedAt);
  const read = useCallback(() => {
    // A clock a little ahead of ours must not write a position in the future.
    const age = Math.max(0, Date.now() - then);
    return `${shownAge(age)} ${live && age >= LIVE_POSITION_OLD_AFTER_MS}`;
  }, [then, live]);
  const subscribe = useCallback(
    (changed: () => void) => {
      let timer: ReturnType<typeof setTimeout>;
      const arm = () => {
        const age = Math.max(0, Date.now() - then);
        let wait = stepAt(age) - (age % stepAt(age));
        if (live && age < LIVE_POSITION_OLD_AFTER_MS) wait = Math.min(wait, LIVE_POSITION_OLD_AFTER_MS - age);
        timer = setTimeout(() => {
          changed();
          arm();
        }, wait);
      };
      arm();
      return () => clearTimeout(timer);
    },
    [then, live],
  );
  const [shown, old] = useSyncExternalStore(subscribe, read).split(' ');
  return { shown: Number(shown), old: old === 'true' };
}

export interface PositionAgeProps {
  recordedAt: string;
  /** Live sharing is on: a position is expected every LIVE_POSITION_EVERY_MS, so a late one is marked old. */
  live: boolean;
  locale: Locale;
}

/** How old the latest position is, written anew as it ages; while live, a stated mark once it is old. */
export function PositionAge({ recordedAt, live, locale }: PositionAgeProps) {
  const { t } = useTranslation(dashboardLiveNamespace);
  const { shown, old } = usePositionAge(recordedAt, live);
  return (
    <>
      {/* Not read out at each change: the surrounding facts are announced when a new position comes. */}
      <span data-testid="live-map-age" aria-live="off">
        {ageText(shown, locale, t('map.age.justNow'))}
      </span>
      {old && (
        <>
          {' '}
          <strong className="live-map__old" data-testid="live-map-old">
            {t('map.age.old')}
          </strong>
        </>
      )}
    </>
  );
}
