import { useTranslation } from 'react-i18next';
import type { LocalChannel, LocalGroup } from './local-payment';
import { paymentsNamespace } from './payments-namespace';

interface LocalMethodChoiceProps {
  /** The form's name: the radio group's name and the legend's id are unique on the page. */
  name: string;
  group: LocalGroup;
  /** The group's channels, in the order the server gave. */
  channels: LocalChannel[];
  value: LocalChannel;
  onChange: (channel: LocalChannel) => void;
}

/** What the chosen kind of local payment means, and for e-wallets and banks which one: a labelled radio group. */
export function LocalMethodChoice({ name, group, channels, value, onChange }: LocalMethodChoiceProps) {
  const { t } = useTranslation(paymentsNamespace);
  if (group === 'qris') return <p className="payment-form__local-note">{t('local.qrisNote')}</p>;
  return (
    <fieldset className="payment-form__methods payment-form__local-choice" aria-describedby={`${name}-${group}-note`}>
      <legend>{t(group === 'ewallet' ? 'local.ewalletLegend' : 'local.bankLegend')}</legend>
      <div className="payment-form__options">
        {channels.map((channel) => (
          <label key={channel} className="payment-form__option">
            <input
              type="radio"
              name={`${name}-${group}`}
              value={channel}
              checked={value === channel}
              onChange={() => onChange(channel)}
            />
            <span>{t(`local.channel.${channel}`)}</span>
          </label>
        ))}
      </div>
      <p id={`${name}-${group}-note`} className="payment-form__local-note">
        {t(group === 'ewallet' ? 'local.ewalletNote' : 'local.bankNote')}
      </p>
    </fieldset>
  );
}
