import { waitFor } from '@testing-library/react';
import message from 'antd/es/message';
import { showToast, toastConfig } from './toasts';

jest.mock('antd/es/message', () => ({
  __esModule: true,
  default: { config: jest.fn(), open: jest.fn(), destroy: jest.fn() },
}));

describe('toasts', () => {
  it('sit at the top center, last about 4 s, and at most 3 show at once', async () => {
    expect(toastConfig).toEqual({ top: 16, duration: 4, maxCount: 3 });
    showToast('error', 'Login expired, please log in again.', { key: 'session-expired' });
    await waitFor(() => expect(message.open).toHaveBeenCalled());
    expect(message.config).toHaveBeenCalledWith(toastConfig);
    expect(message.open).toHaveBeenCalledWith({
      type: 'error',
      content: 'Login expired, please log in again.',
      key: 'session-expired',
      duration: undefined,
    });
  });
});
