import { localeFromPath } from '@kabari/shared/i18n/locale';
import { useLocation } from '@kabari/shared/routing/router';
import { DeleteAccount } from './delete-account';
import { EmailForm } from './email-form';
import { ExportData } from './export-data';
import { NoticeSettingsPart } from './notice-settings';
import { PasswordForm } from './password-form';
import { ProfileForm } from './profile-form';
import { SessionsList } from './sessions-list';
import './account-section.css';

/** The Account tab of My subscription: name, email, password, sessions, emails about requests, export, deletion. */
export function AccountSection() {
  const locale = localeFromPath(useLocation().pathname);
  return (
    <div className="account-section">
      <ProfileForm />
      <EmailForm />
      <PasswordForm />
      <SessionsList locale={locale} />
      <NoticeSettingsPart />
      <ExportData />
      <DeleteAccount locale={locale} />
    </div>
  );
}
