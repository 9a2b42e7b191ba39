import { Link } from '@kabari/shared/routing/router';
import { useTranslation } from 'react-i18next';
import { billingNamespace } from '../../i18n/billing-namespace';

/** The register result screen. Payment polling arrives with the accounts and payments work. */
export default function RegisterResultPage() {
  const { t, i18n } = useTranslation(billingNamespace);
  return (
    <section className="register-result-page" data-remote="billing" aria-labelledby="register-result-title">
      <h1 id="register-result-title">{t('registerResult.title')}</h1>
      <p>{t('registerResult.noRegistration')}</p>
      <Link to={i18n.language === 'id' ? '/id/' : '/'}>Kabari</Link>
    </section>
  );
}
