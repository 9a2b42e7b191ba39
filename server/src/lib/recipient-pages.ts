import { englishPathOf } from './locale-paths';

/**
 * The pages a location request's recipient opens from the link, and the consent overview of every request to their
 * address (/my-requests): nothing about them is recorded there.
 */
export const RECIPIENT_PAGES = ['/enter-link', '/location-failed', '/share', '/my-requests'] as const;

type RecipientPage = (typeof RECIPIENT_PAGES)[number];

/** Which recipient's page a path is, in either language, with or without a trailing slash; null for any other. */
export function recipientPageOf(pathname: string): RecipientPage | null {
  const bare = englishPathOf(pathname).replace(/\/+$/, '');
  return RECIPIENT_PAGES.find((page) => page === bare) ?? null;
}

/** Whether a path is a recipient's page, in either language, with or without a trailing slash. */
export function isRecipientPage(pathname: string): boolean {
  return recipientPageOf(pathname) !== null;
}
