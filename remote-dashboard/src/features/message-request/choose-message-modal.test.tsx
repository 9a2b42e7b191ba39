import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ApiData } from '@kabari/shared/api/api-types';
import { formatTime } from '@kabari/shared/i18n/format-time';
import { showToast } from '@kabari/shared/ui/toasts';
import { renderAt } from '../../../../jest/render-with-i18n';
import { ChooseMessageModal } from './choose-message-modal';
import { locationRequest } from '../../../../jest/location-request';
import { fakeApi } from '../../../../jest/fake-api';
import type { MessageTemplate } from './message-api';

jest.mock('@kabari/shared/ui/toasts', () => ({ showToast: jest.fn() }));
const toast = jest.mocked(showToast);
jest.setTimeout(30_000);
// antd in jsdom is slow on a busy machine: wait for what the user would see for longer than the default second.
configure({ asyncUtilTimeout: 10_000 });

const templates: MessageTemplate[] = [
  { id: 'check-in', channel: 'sms', locale: 'en', name: 'Family check-in', defaultNote: 'Are you home safe?' },
  { id: 'keep-in-touch', channel: 'sms', locale: 'en', name: 'Plain', defaultNote: '' },
];
const pending = locationRequest({ id: 'r-1', delivery: 'queued' });

function serve(limit: ApiData<'/api/v1/requests/limit', 'get'>) {
  fakeApi.on('get', '/api/v1/requests/templates', { items: templates, noteMaxLength: 80 });
  fakeApi.on('get', '/api/v1/requests/limit', limit);
  fakeApi.on('post', '/api/v1/requests/preview', ({ note = '' }) =>
    note.includes('http')
      ? fakeApi.fail(400, 'The note cannot contain links: the message carries its own consent link')
      : { text: `Ana asks where you are.${note ? ` "${note}"` : ''} Open: https://kabari.test/enter-link#…` },
  );
  fakeApi.on('post', '/api/v1/requests/sms', { request: pending });
  fakeApi.on('post', '/api/v1/requests/email', { request: pending });
}

async function open(props: Partial<Parameters<typeof ChooseMessageModal>[0]> = {}) {
  const onSent = jest.fn();
  await renderAt(
    '/dashboard',
    <ChooseMessageModal
      open
      channel="sms"
      target="+6281234567890"
      locale="en"
      onClose={jest.fn()}
      onSent={onSent}
      {...props}
    />,
  );
  const dialog = await screen.findByRole('dialog', { name: 'Choose a message' });
  return { dialog, onSent };
}

describe('the choose-message modal', () => {
  beforeEach(() => {
    toast.mockReset();
  });

  it('previews the exact message, lets only the note change, and sends', async () => {
    serve({ nextAllowedAt: null, optedOut: false });
    const user = userEvent.setup();
    const { dialog, onSent } = await open();
    const preview = await within(dialog).findByTestId('message-preview');
    await waitFor(() => expect(preview).toHaveTextContent('"Are you home safe?"'));
    expect(fakeApi.calls('get', '/api/v1/requests/templates').map((call) => call.query)).toContainEqual({
      channel: 'sms',
      locale: 'en',
    });
    expect(fakeApi.calls('get', '/api/v1/requests/limit').map((call) => call.query)).toContainEqual({
      channel: 'sms',
      number: '+6281234567890',
    });

    const note = within(dialog).getByRole('textbox', { name: 'Your personal note' });
    expect(note).toHaveAccessibleDescription(/Only the note can be changed/);
    await user.clear(note);
    await user.type(note, 'Dinner at 7?');
    await waitFor(() => expect(preview).toHaveTextContent('"Dinner at 7?"'));

    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(onSent).toHaveBeenCalledWith(pending));
    const [sent] = fakeApi.calls('post', '/api/v1/requests/sms');
    expect(sent?.body).toEqual({
      number: '+6281234567890',
      templateId: 'check-in',
      note: 'Dinner at 7?',
      locale: 'en',
    });
    expect(sent?.options).toEqual({ toastErrors: false, handledStatuses: [409, 429] });
    expect(toast).toHaveBeenCalledWith('success', 'Send SMS template success');
  });

  it('lists WhatsApp first where the server sends it, SMS chosen until WhatsApp is picked by keyboard', async () => {
    serve({ nextAllowedAt: null, optedOut: false, whatsapp: true });
    const user = userEvent.setup();
    const { dialog, onSent } = await open();
    const sendBy = await within(dialog).findByRole('group', { name: 'Send by' });
    const options = within(sendBy).getAllByRole('radio');
    expect(options.map((option) => option.closest('label')?.textContent)).toEqual(['WhatsApp', 'SMS']);
    expect(within(sendBy).getByRole('radio', { name: 'SMS' })).toBeChecked();
    expect(within(dialog).queryByTestId('whatsapp-hint')).not.toBeInTheDocument();
    expect(within(dialog).getByRole('heading', { name: 'Exactly what they will receive' })).toBeVisible();

    // The arrow key moves the choice to WhatsApp: the dialog says the note stays out, and what the preview is.
    within(sendBy).getByRole('radio', { name: 'SMS' }).focus();
    await user.keyboard('{ArrowUp}');
    await waitFor(() => expect(within(sendBy).getByRole('radio', { name: 'WhatsApp' })).toBeChecked());
    expect(within(dialog).getByTestId('whatsapp-hint')).toHaveTextContent(/without your note/);
    expect(
      within(dialog).getByRole('heading', { name: 'The SMS that goes instead if they have no WhatsApp' }),
    ).toBeVisible();
    await within(dialog).findByTestId('message-preview');
    const send = within(dialog).getByRole('button', { name: 'Send' });
    await waitFor(() => expect(send).toBeEnabled());
    await user.click(send);
    await waitFor(() => expect(onSent).toHaveBeenCalledWith(pending));
    expect(fakeApi.calls('post', '/api/v1/requests/sms')[0]?.body).toMatchObject({
      channel: 'whatsapp',
      number: '+6281234567890',
    });
    expect(toast).toHaveBeenCalledWith('success', 'Request sent by WhatsApp');
  });

  it('offers no choice where the server does not send WhatsApp', async () => {
    serve({ nextAllowedAt: null, optedOut: false, whatsapp: false });
    const { dialog } = await open();
    await within(dialog).findByTestId('message-preview');
    expect(within(dialog).queryByRole('group', { name: 'Send by' })).not.toBeInTheDocument();
  });

  it("counts the note against the server's limit, and never sends without the exact preview", async () => {
    serve({ nextAllowedAt: null, optedOut: false });
    const user = userEvent.setup();
    const { dialog } = await open();
    const preview = await within(dialog).findByTestId('message-preview');
    const note = within(dialog).getByRole('textbox', { name: 'Your personal note' });
    expect(note).toHaveAttribute('maxLength', '80');
    expect(within(dialog).getByTestId('note-count')).toHaveTextContent('18 of 80 characters');
    const send = within(dialog).getByRole('button', { name: 'Send' });
    await waitFor(() => expect(send).toBeEnabled());

    // While the note changes, the preview shown is of the old note: Send waits for the new one.
    await user.type(note, '!');
    expect(within(dialog).getByTestId('note-count')).toHaveTextContent('19 of 80 characters');
    expect(send).toBeDisabled();
    await waitFor(() => expect(preview).toHaveTextContent('"Are you home safe?!"'));
    await waitFor(() => expect(send).toBeEnabled());

    // A refused note: the old preview is cleared, the server's reason shown, and Send stays off.
    await user.clear(note);
    await user.type(note, 'see http://x.test');
    expect(await within(dialog).findByTestId('preview-failed')).toHaveTextContent(
      'The note cannot contain links: the message carries its own consent link',
    );
    expect(within(dialog).queryByTestId('message-preview')).not.toBeInTheDocument();
    expect(send).toBeDisabled();
    await user.click(send);
    expect(fakeApi.calls('post', '/api/v1/requests/sms')).toEqual([]);
  });

  it('shows the 3-hour limit before the user tries', async () => {
    serve({ nextAllowedAt: new Date(Date.now() + 3_600_000).toISOString(), optedOut: false });
    const { dialog } = await open({ channel: 'email', target: 'budi@example.com' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'One message per number or email every 3 hours. You can send the next one to budi@example.com on',
    );
    expect(within(dialog).getByRole('button', { name: 'Send' })).toBeDisabled();
  });

  it('tells plainly that an opted-out target will not be messaged', async () => {
    serve({ nextAllowedAt: null, optedOut: true });
    const { dialog } = await open();
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      '+6281234567890 has asked not to receive location requests from Kabari.',
    );
    expect(within(dialog).getByRole('button', { name: 'Send' })).toBeDisabled();
  });

  it("explains the server's refusal with its time, in Indonesian", async () => {
    serve({ nextAllowedAt: null, optedOut: false });
    const next = new Date(Date.now() + 2 * 3_600_000).toISOString();
    const user = userEvent.setup();
    await renderAt(
      '/id/dashboard',
      <ChooseMessageModal
        open
        channel="email"
        target="budi@example.com"
        locale="id"
        onClose={jest.fn()}
        onSent={jest.fn()}
      />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Pilih pesan' });
    await within(dialog).findByTestId('message-preview');
    fakeApi.on('post', '/api/v1/requests/email', fakeApi.fail(429, 'Too soon', { nextAllowedAt: next }));
    await user.click(within(dialog).getByRole('button', { name: 'Kirim' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      `Anda bisa mengirim pesan berikutnya ke budi@example.com pada ${formatTime(next, 'id')}.`,
    );
    expect(within(dialog).getByRole('button', { name: 'Kirim' })).toBeDisabled();
    expect(toast).toHaveBeenCalledWith('error', 'Template email gagal dikirim');
  });

  it('says up front, in the server’s words, that today’s SMS are used up, and does not let the user send', async () => {
    const message =
      "Today's SMS requests are used up: one account can send 10 a day. The next one is possible in 7 hours 5 " +
      'minutes; requests by email or link still work.';
    serve({ nextAllowedAt: null, optedOut: false, refusal: { rule: 'account-day', message, nextAllowedAt: null } });
    const { dialog } = await open();
    expect(await within(dialog).findByTestId('send-refused')).toHaveTextContent(message);
    await within(dialog).findByTestId('message-preview');
    expect(within(dialog).getByRole('button', { name: 'Send' })).toBeDisabled();
  });

  it('shows a daily limit met while sending in the server’s words, in Indonesian', async () => {
    serve({ nextAllowedAt: null, optedOut: false });
    const user = userEvent.setup();
    await renderAt(
      '/id/dashboard',
      <ChooseMessageModal
        open
        channel="sms"
        target="+6281234567890"
        locale="id"
        onClose={jest.fn()}
        onSent={jest.fn()}
      />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Pilih pesan' });
    await within(dialog).findByTestId('message-preview');
    const message =
      'Kabari sudah mengirim semua SMS yang bisa dikirim hari ini. Permintaan lewat SMS bisa dikirim lagi dalam ' +
      '7 jam 5 menit; permintaan lewat email atau tautan tetap bisa.';
    fakeApi.on(
      'post',
      '/api/v1/requests/sms',
      fakeApi.fail(429, message, {
        nextAllowedAt: new Date(Date.now() + 7 * 3_600_000).toISOString(),
        rule: 'sms-budget',
      }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Kirim' }));
    expect(await within(dialog).findByTestId('send-refused')).toHaveTextContent(message);
    expect(within(dialog).getByRole('button', { name: 'Kirim' })).toBeDisabled();
    expect(toast).toHaveBeenCalledWith('error', 'Template SMS gagal dikirim');
  });
});
