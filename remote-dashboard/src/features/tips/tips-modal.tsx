import { useTranslation } from 'react-i18next';
import Modal from 'antd/es/modal';
import Button from 'antd/es/button';
import { dashboardRequestsNamespace } from '../../i18n/dashboard-requests-namespace';

const tipKeys = ['ask', 'consent', 'ipLocated', 'gpsTracked', 'control', 'limits'] as const;

/** The tips modal: how a consent request works, as it really does. */
export function TipsModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation(dashboardRequestsNamespace);
  return (
    <Modal
      open={open}
      title={t('tips.title')}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          {t('tips.close')}
        </Button>
      }
    >
      <ul className="tips-modal__list">
        {tipKeys.map((key) => (
          <li key={key}>{t(`tips.items.${key}`)}</li>
        ))}
      </ul>
    </Modal>
  );
}
