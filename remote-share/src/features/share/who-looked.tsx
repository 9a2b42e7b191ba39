import { useEffect, useState } from 'react';
import type { Locale } from '@kabari/shared/i18n/locale';
import { repeatWhileInView } from '@kabari/shared/ui/repeat-while-in-view';
import { shareApi, type MapViewsSeen } from '../../lib/share-api';
import type { ShareText } from '../../lib/share-text';

/** How often the page asks again (and writes "… minutes ago" anew) while it is in view. */
export const WHO_LOOKED_EVERY_MS = 30_000;
/** A map heard from this recently is open now: an open map reports every minute. */
const LOOKING_NOW_MS = 90_000;

/** "5 minutes ago", "2 hours ago", "yesterday": in the page's language, by the reader's clock and calendar. */
function timeAgo(then: number, now: number, locale: Locale): string {
  const format = new Intl.RelativeTimeFormat(locale === 'id' ? 'id' : 'en', { numeric: 'auto' });
  const minutes = Math.max(1, Math.floor((now - then) / 60_000));
  if (minutes < 60) return format.format(-minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return format.format(-hours, 'hour');
  const midnight = (time: number) => new Date(time).setHours(0, 0, 0, 0);
  return format.format(-Math.round((midnight(now) - midnight(then)) / 86_400_000), 'day');
}

/** The sentence about the requester's looking, or what it says when they never did. */
export function whoLookedText(views: MapViewsSeen, now: number, name: string, locale: Locale, t: ShareText): string {
  if (!views.lastSeenAt) return t('share.looked.never', { name });
  const lastSeen = Date.parse(views.lastSeenAt);
  const lookingNow = now - lastSeen < LOOKING_NOW_MS;
  const startOfToday = new Date(now).setHours(0, 0, 0, 0);
  const today = views.openedAt.filter((openedAt) => Date.parse(openedAt) >= startOfToday).length;
  // An opening from before midnight that is still open counts for today too.
  const count = Math.max(today, lookingNow ? 1 : 0);
  const times = t(
    new Intl.PluralRules(locale).select(count) === 'one' ? 'share.looked.times_one' : 'share.looked.times_other',
    {
      count,
    },
  );
  if (lookingNow) return t('share.looked.now', { name, times });
  const ago = timeAgo(lastSeen, now, locale);
  return count > 0 ? t('share.looked.last', { name, ago, times }) : t('share.looked.lastNotToday', { name, ago });
}

/**
 * Who looked: when the requester last had the map of this link open, and how often today. Asked once the page's
 * script runs, then every half minute while the page is in view; the server knows only while the recipient shares.
 */
export function WhoLooked({ token, name, locale, t }: { token: string; name: string; locale: Locale; t: ShareText }) {
  const [seen, setSeen] = useState<{ views: MapViewsSeen; at: number } | null>(null);
  useEffect(() => {
    let current = true;
    const stop = repeatWhileInView(() => {
      shareApi.views(token).then(
        (views) => {
          if (current) setSeen({ views, at: Date.now() });
        },
        // Said again at the next ask; until then the sentence stays as it was.
        () => undefined,
      );
    }, WHO_LOOKED_EVERY_MS);
    return () => {
      current = false;
      stop();
    };
  }, [token]);
  if (!seen) return null;
  return (
    <p className="recipient__looked" data-testid="who-looked">
      {whoLookedText(seen.views, seen.at, name, locale, t)}
    </p>
  );
}
