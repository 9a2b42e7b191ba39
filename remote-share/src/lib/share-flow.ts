import type { ApiSchema } from '@kabari/shared/api/api-types';
import { localizePath, type Locale } from '@kabari/shared/i18n/locale';
import { routePaths } from '@kabari/shared/routing/route-paths';
import { currentPosition, GeolocationError, positionBody } from './geolocation';
import { shareApi, type SharedPosition } from './share-api';

/** What the server says this browser shared through the plain form (the page's data, `shared`). */
type SharedByForm = NonNullable<ApiSchema<'RecipientPageData'>['shared']>;

/**
 * What the thank-you page says was shared: kept for this tab only, never sent anywhere. The server's summary of a
 * plain form's Share, plus the precise position's accuracy once this page's script shared it.
 */
export interface ShareSummary extends Omit<SharedByForm, 'approximatePlace' | 'preciseAccuracy'> {
  /** The place's parts, written in the page's language when shown; absent in a summary an older page kept. */
  approximatePlace?: SharedByForm['approximatePlace'];
  preciseAccuracy: number | null;
}

const summaryKey = (token: string) => `kabari-share:${token}`;

export function saveSummary(token: string, summary: ShareSummary): void {
  try {
    sessionStorage.setItem(summaryKey(token), JSON.stringify(summary));
  } catch {
    // Private mode without storage: the thank-you page then says it more generally.
  }
}

/** Stop and erase: what was shared is erased on the server, and this tab forgets it too. */
export function forgetSummary(token: string): void {
  try {
    sessionStorage.removeItem(summaryKey(token));
  } catch {
    // No storage: nothing was kept.
  }
}

export function readSummary(token: string): ShareSummary | null {
  try {
    const text = sessionStorage.getItem(summaryKey(token));
    return text ? (JSON.parse(text) as ShareSummary) : null;
  } catch {
    return null;
  }
}

/** A recipient page's address in the page's language, carrying the token (and any other parameters). */
export function recipientPath(
  route: 'enterLink' | 'share' | 'locationFailed',
  locale: Locale,
  params: Record<string, string>,
): string {
  return `${localizePath(routePaths[route], locale)}?${new URLSearchParams(params).toString()}`;
}

/**
 * The browser's position, once consent is recorded (by this page's script, or by the server for the plain form).
 * Resolves with the path of the page that says why when the browser gave none, or null once it was shared.
 */
export async function sharePrecisePosition(
  token: string,
  locale: Locale,
  summary: ShareSummary,
): Promise<string | null> {
  try {
    const position = await currentPosition();
    await shareApi.position(token, positionBody(position));
    saveSummary(token, { ...summary, preciseAccuracy: Math.round(position.coords.accuracy) });
    return null;
  } catch (error) {
    if (error instanceof GeolocationError) {
      return recipientPath('locationFailed', locale, { token, reason: error.reason });
    }
    throw error;
  }
}

/**
 * Share: consent (the server records the approximate place), then the browser's position. Resolves with the
 * path to go to next: the thank-you page, or /location-failed with the reason.
 */
export async function shareLocation(token: string, locale: Locale, onLocating?: () => void): Promise<string> {
  const consent = await shareApi.consent(token);
  const approximate: SharedPosition | null = consent.approximate;
  const previous = readSummary(token);
  const summary: ShareSummary = {
    approximateAddress: approximate?.address ?? previous?.approximateAddress ?? null,
    approximatePlace: approximate ? (approximate.place ?? null) : (previous?.approximatePlace ?? null),
    approximateKnown: approximate !== null || Boolean(previous?.approximateKnown),
    preciseAccuracy: previous?.preciseAccuracy ?? null,
  };
  saveSummary(token, summary);
  onLocating?.();
  return (await sharePrecisePosition(token, locale, summary)) ?? recipientPath('share', locale, { token });
}
