import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderAt } from '../../../../jest/render-with-i18n';
import { fakeApi } from '../../../../jest/fake-api';
import ContactUsPage from './contact-us-page';

async function fillIn(user: ReturnType<typeof userEvent.setup>, labels: Record<string, string>) {
  for (const [label, value] of Object.entries(labels)) await user.type(screen.getByLabelText(label), value);
}

describe('the contact form', () => {
  it('labels every control and ties each hint to its field', async () => {
    await renderAt('/contact-us', <ContactUsPage />);
    expect(screen.getByRole('textbox', { name: 'Your name' })).toBeRequired();
    expect(screen.getByRole('textbox', { name: 'Your email address' })).toHaveAccessibleDescription(
      'We reply to this address.',
    );
    expect(screen.getByRole('combobox', { name: 'Topic' })).toHaveDisplayValue('Choose a topic');
    expect(screen.getByRole('textbox', { name: 'Your message' })).toHaveAccessibleDescription(
      'At least 10 characters.',
    );
  });

  it('sends nothing while a field is wrong, says what is wrong, and focuses the first wrong field', async () => {
    const user = userEvent.setup();
    await renderAt('/contact-us', <ContactUsPage />);
    await fillIn(user, { 'Your email address': 'dewi@example' });
    await user.click(screen.getByRole('button', { name: 'Send message' }));

    expect(fakeApi.called()).toEqual([]);
    expect(screen.getByRole('alert')).toHaveTextContent('Please correct the fields marked below.');
    const name = screen.getByRole('textbox', { name: 'Your name' });
    expect(name).toHaveFocus();
    expect(name).toBeInvalid();
    expect(name).toHaveAccessibleDescription('Please fill in your name');
    expect(screen.getByRole('textbox', { name: 'Your email address' })).toHaveAccessibleDescription(
      'We reply to this address. Enter valid email address',
    );
    expect(screen.getByRole('combobox', { name: 'Topic' })).toHaveAccessibleDescription('Please choose a topic');

    // Errors follow the typing once shown.
    await user.type(name, 'Dewi');
    expect(name).not.toBeInvalid();
  });

  it('sends the trimmed message with the page language, then confirms and focuses the confirmation', async () => {
    fakeApi.on('post', '/api/v1/contact/messages', { received: true });
    const user = userEvent.setup();
    await renderAt('/id/contact-us', <ContactUsPage />);
    await fillIn(user, {
      'Nama Anda': '  Dewi Lestari ',
      'Alamat email Anda': 'dewi@example.com',
      'Pesan Anda': 'Saya ingin mengekspor data saya.',
    });
    await user.selectOptions(screen.getByLabelText('Topik'), 'Data pribadi dan privasi saya');
    await user.click(screen.getByRole('button', { name: 'Kirim pesan' }));

    const heading = await screen.findByRole('heading', { name: 'Terima kasih, pesan Anda sudah terkirim' });
    expect(heading).toHaveFocus();
    expect(screen.getByText('Kami akan membalas ke dewi@example.com.')).toBeInTheDocument();
    const [sent] = fakeApi.calls('post', '/api/v1/contact/messages');
    expect(sent?.body).toEqual({
      name: 'Dewi Lestari',
      email: 'dewi@example.com',
      topic: 'privacy',
      message: 'Saya ingin mengekspor data saya.',
      locale: 'id',
    });
    expect(sent?.options).toEqual({ toastErrors: false, handledStatuses: [400, 429] });

    await user.click(screen.getByRole('button', { name: 'Tulis pesan lain' }));
    expect(screen.getByRole('textbox', { name: 'Nama Anda' })).toHaveValue('');
    expect(screen.getByRole('textbox', { name: 'Nama Anda' })).toHaveFocus();
  });

  it.each([
    [
      'ApiError: Too many messages',
      () => fakeApi.fail(429, 'Too many messages'),
      'You have sent several messages in a short time. Please try again in an hour.',
    ],
    [
      'ApiError: message: too short',
      () => fakeApi.fail(400, 'message: too short'),
      'Your message was not accepted. Please check the fields and try again.',
    ],
    [
      'ApiError: Network Error',
      () => fakeApi.unreachable(),
      'Your message could not be sent. Check your connection and try again.',
    ],
    // A remote's standalone shell has no interceptors: axios's own error.
    [
      'Error: Request failed',
      () => {
        fakeApi.withoutHost();
        return fakeApi.fail(429, 'Too many messages');
      },
      'Please try again in an hour.',
    ],
  ])('keeps what was typed and explains a refusal (%s)', async (_error, refusal, message) => {
    fakeApi.on('post', '/api/v1/contact/messages', refusal());
    const user = userEvent.setup();
    await renderAt('/contact-us', <ContactUsPage />);
    await fillIn(user, {
      'Your name': 'Dewi',
      'Your email address': 'dewi@example.com',
      'Your message': 'Hello there, a question.',
    });
    await user.selectOptions(screen.getByLabelText('Topic'), 'question');
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(message));
    expect(screen.getByRole('textbox', { name: 'Your message' })).toHaveValue('Hello there, a question.');
    // The form says it itself: the API client does not toast it too.
    expect(fakeApi.effects.toastError).not.toHaveBeenCalled();
  });
});
