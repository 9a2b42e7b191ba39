import { useTranslation } from 'react-i18next';
import { searchCookiesNamespace } from '../../i18n/search-cookies-namespace';
import './cookie-notice.css';

type StorageKind = 'cookie' | 'localStorage' | 'sessionStorage';
type Category = 'essential' | 'preference' | 'statistics';

interface StoredItem {
  /** The name exactly as the browser shows it. */
  name: string;
  kind: StorageKind;
  category: Category;
  /** Its texts in the search-cookies namespace (notice.items.<key>). */
  key:
    | 'token'
    | 'locale'
    | 'visitorId'
    | 'visitorIdCopy'
    | 'user'
    | 'visitorReported'
    | 'reloadedAt'
    | 'passwordPending'
    | 'searchedNumber'
    | 'shareSummary'
    | 'sharedHere'
    | 'reporter'
    | 'overview'
    | 'operator';
}

/**
 * Everything Kabari keeps in the browser, as the code really sets it: the session token
 * (shared/src/stores/session-store.ts), the locale (shared/src/i18n/locale.ts), the visitor id and its
 * twin and the report flag (host/src/features/visitor), the persisted user, the reload guard
 * (host/src/features/build-updates), the sign-up's pending-password note (shared/src/account/password-pending.ts)
 * and the number searched before it (shared/src/requests/searched-number.ts),
 * a recipient's share summary (remote-share share-flow.ts; `<token>` stands for the link's code) and the note that
 * this browser shared through a link's plain form (server/src/web/shared-here.ts), and the browser that reported a link
 * (server/src/routes/share/reporter-session.ts), the session of someone who proved their address on the page of every
 * request to them (server/src/routes/my-requests/routes.ts) and an operator's console session
 * (server/src/plugins/operator-guard.ts). Adding one
 * there means adding it here: stored-items-coverage.test.ts finds them in the code. Stripe's and PayPal's own
 * cookies are not Kabari's: the page's text says when they appear.
 */
export const storedItems: readonly StoredItem[] = [
  { name: 'token', kind: 'cookie', category: 'essential', key: 'token' },
  { name: 'locale', kind: 'cookie', category: 'preference', key: 'locale' },
  { name: 'G_P_L_Visitor_Id', kind: 'cookie', category: 'statistics', key: 'visitorId' },
  { name: 'FB_G_P_L_Visitor_Id', kind: 'cookie', category: 'statistics', key: 'visitorIdCopy' },
  { name: 'kabari-user', kind: 'localStorage', category: 'essential', key: 'user' },
  { name: 'kabari-visitor-reported', kind: 'localStorage', category: 'statistics', key: 'visitorReported' },
  { name: 'kabari-reloaded-at', kind: 'sessionStorage', category: 'essential', key: 'reloadedAt' },
  { name: 'kabari-password-pending', kind: 'sessionStorage', category: 'essential', key: 'passwordPending' },
  { name: 'kabari-searched-number', kind: 'sessionStorage', category: 'essential', key: 'searchedNumber' },
  { name: 'kabari-share:<token>', kind: 'sessionStorage', category: 'essential', key: 'shareSummary' },
  { name: 'kabari-shared-here', kind: 'cookie', category: 'essential', key: 'sharedHere' },
  { name: 'kabari-reporter', kind: 'cookie', category: 'essential', key: 'reporter' },
  { name: 'kabari-overview', kind: 'cookie', category: 'essential', key: 'overview' },
  { name: 'kabari_operator', kind: 'cookie', category: 'essential', key: 'operator' },
];

/** Which cookies and storage items exist, and why: one card per item (readable on a phone, unlike a wide table). */
export function CookieNotice() {
  const { t } = useTranslation(searchCookiesNamespace);
  return (
    <section className="cookie-notice" aria-labelledby="cookie-notice-title">
      <h2 id="cookie-notice-title">{t('notice.title')}</h2>
      <ul className="cookie-notice__list">
        {storedItems.map((item) => (
          <li key={item.name} className="cookie-notice__item">
            <h3 className="cookie-notice__name" translate="no">
              <code>{item.name}</code>
            </h3>
            <dl>
              <div>
                <dt>{t('notice.purpose')}</dt>
                <dd>{t(`notice.items.${item.key}.purpose`)}</dd>
              </div>
              <div>
                <dt>{t('notice.duration')}</dt>
                <dd>{t(`notice.items.${item.key}.duration`)}</dd>
              </div>
              <div>
                <dt>{t('notice.kind')}</dt>
                <dd>{t(`notice.kinds.${item.kind}`)}</dd>
              </div>
              <div>
                <dt>{t('notice.category')}</dt>
                <dd>{t(`notice.categories.${item.category}`)}</dd>
              </div>
            </dl>
          </li>
        ))}
      </ul>
    </section>
  );
}
