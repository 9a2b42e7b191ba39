import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderAt } from '../../../../jest/render-with-i18n';
import { fakeApi } from '../../../../jest/fake-api';
import { RefundForm } from './refund-form';

describe('RefundForm', () => {
  it('asks for the email, a code and a reason before sending anything', async () => {
    await renderAt('/unsubscribe-and-refund', <RefundForm />);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel and ask for a refund' }));
    expect(screen.getByText('Please enter your email address')).toBeInTheDocument();
    expect(screen.getByText('Ask for a code first, then enter it')).toBeInTheDocument();
    expect(screen.getByText(/Please tell us the reason/)).toBeInTheDocument();
    expect(screen.getByLabelText('Email address of your account')).toHaveFocus();
    expect(fakeApi.called()).toEqual([]);
  });

  it('sends a code (type 2), then the request, and confirms it in Indonesian', async () => {
    fakeApi.on('post', '/api/v1/auth/sendCode', { success: true });
    await renderAt('/id/unsubscribe-and-refund', <RefundForm />);
    await userEvent.type(screen.getByLabelText('Alamat email akun Anda'), 'ana@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Kirim kode' }));
    expect(await screen.findByText(/Kami sudah mengirim kode 6 angka ke ana@example.com/)).toBeInTheDocument();
    expect(fakeApi.calls('post', '/api/v1/auth/sendCode').map((call) => call.body)).toEqual([
      { email: 'ana@example.com', type: 2 },
    ]);
    await userEvent.type(screen.getByLabelText('Kode dari email'), '123456');
    await userEvent.type(screen.getByLabelText(/Mengapa Anda membatalkan/), 'Tidak jadi dipakai, mohon dikembalikan.');
    fakeApi.on('post', '/api/v1/refunds', { id: 'refund-1' });
    await userEvent.click(screen.getByRole('button', { name: 'Batalkan dan minta pengembalian dana' }));
    expect(await screen.findByRole('heading', { name: 'Permintaan Anda sudah kami terima' })).toHaveFocus();
    expect(fakeApi.called()).toEqual(['POST /api/v1/auth/sendCode', 'POST /api/v1/refunds']);
    expect(fakeApi.calls('post', '/api/v1/refunds')[0]?.body).toEqual({
      email: 'ana@example.com',
      reason: 'Tidak jadi dipakai, mohon dikembalikan.',
      locale: 'id',
      verificationCode: '123456',
    });
  });

  it("shows the server's reason when the request is refused, and keeps the form", async () => {
    fakeApi.on('post', '/api/v1/auth/sendCode', { success: true });
    fakeApi.on('post', '/api/v1/refunds', fakeApi.fail(400, 'The code is wrong or has expired'));
    await renderAt('/unsubscribe-and-refund', <RefundForm />);
    await userEvent.type(screen.getByLabelText('Email address of your account'), 'ana@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send me a code' }));
    await waitFor(() => expect(fakeApi.calls('post', '/api/v1/auth/sendCode')).toHaveLength(1));
    await userEvent.type(screen.getByLabelText('Code from the email'), '000000');
    await userEvent.type(screen.getByLabelText(/Why are you cancelling/), 'I no longer need it.');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel and ask for a refund' }));
    expect(
      await screen.findByText('Your request could not be sent: The code is wrong or has expired'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Code from the email')).toHaveValue('000000');
  });
});
