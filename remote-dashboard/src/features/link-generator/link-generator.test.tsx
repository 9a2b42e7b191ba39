import { configure, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatTime } from '@kabari/shared/i18n/format-time';
import { showToast } from '@kabari/shared/ui/toasts';
import { renderAt } from '../../../../jest/render-with-i18n';
import { LinkGenerator } from './link-generator';
import { locationRequest } from '../../../../jest/location-request';
import { fakeApi } from '../../../../jest/fake-api';

jest.mock('@kabari/shared/ui/toasts', () => ({ showToast: jest.fn() }));
const toast = jest.mocked(showToast);
jest.setTimeout(30_000);
// antd in jsdom is slow on a busy machine: wait for what the user would see for longer than the default second.
configure({ asyncUtilTimeout: 10_000 });

const link = locationRequest({
  id: 'l-1',
  channel: 'link',
  target: null,
  title: 'Mum, Sunday',
  url: 'https://kabari.test/enter-link#abc',
  delivery: null,
});

describe('the link generator', () => {
  beforeEach(() => {
    fakeApi.on('get', '/api/v1/requests/limit', { nextAllowedAt: null, optedOut: false });
    toast.mockReset();
  });

  it('asks for a title, generates, copies (or says it could not), and starts a new link', async () => {
    fakeApi.on('post', '/api/v1/links', { request: link });
    const onCreated = jest.fn();
    const user = userEvent.setup();
    await renderAt('/dashboard', <LinkGenerator locale="en" onCreated={onCreated} onSeeHistory={jest.fn()} />);
    await user.click(screen.getByRole('button', { name: 'Generate link' }));
    expect(screen.getByRole('textbox', { name: 'Link title' })).toHaveAccessibleDescription(
      /Please give the link a title/,
    );
    expect(fakeApi.calls('post', '/api/v1/links')).toEqual([]);

    await user.type(screen.getByRole('textbox', { name: 'Link title' }), 'Mum, Sunday');
    await user.click(screen.getByRole('button', { name: 'Generate link' }));
    const url = await screen.findByRole('textbox', { name: 'Your link: Mum, Sunday' });
    expect(url).toHaveValue('https://kabari.test/enter-link#abc');
    expect(fakeApi.calls('post', '/api/v1/links').map((call) => call.body)).toEqual([
      { title: 'Mum, Sunday', locale: 'en' },
    ]);
    expect(onCreated).toHaveBeenCalledWith(link);

    const writeText = jest.fn().mockResolvedValueOnce(undefined).mockRejectedValueOnce(new Error('denied'));
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(toast).toHaveBeenCalledWith('success', 'Short link copy success'));
    expect(writeText).toHaveBeenCalledWith('https://kabari.test/enter-link#abc');
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(toast).toHaveBeenCalledWith('error', 'Short link copy failed'));

    await user.click(screen.getByRole('button', { name: 'Generate a new link' }));
    expect(screen.getByRole('textbox', { name: 'Link title' })).toHaveValue('');
  });

  it('says how long a link works as the server is configured, in both languages', async () => {
    fakeApi.on('get', '/api/v1/requests/limit', { nextAllowedAt: null, optedOut: false, linkExpiryDays: 3 });
    const { unmount } = await renderAt(
      '/dashboard',
      <LinkGenerator locale="en" onCreated={jest.fn()} onSeeHistory={jest.fn()} />,
    );
    expect(await screen.findByText(/A link works for 3 days unless you cancel it\./)).toBeInTheDocument();
    expect(screen.queryByText(/7 days/)).not.toBeInTheDocument();
    unmount();
    fakeApi.on('get', '/api/v1/requests/limit', { nextAllowedAt: null, optedOut: false, linkExpiryDays: 1 });
    await renderAt('/id/dashboard', <LinkGenerator locale="id" onCreated={jest.fn()} onSeeHistory={jest.fn()} />);
    expect(await screen.findByText(/Tautan berlaku selama 1 hari kecuali Anda membatalkannya\./)).toBeInTheDocument();
  });

  it('says when the next link is allowed, in Indonesian, and allows none before then', async () => {
    const next = new Date(Date.now() + 3_600_000).toISOString();
    fakeApi.on('get', '/api/v1/requests/limit', { nextAllowedAt: next, optedOut: false });
    await renderAt('/id/dashboard', <LinkGenerator locale="id" onCreated={jest.fn()} onSeeHistory={jest.fn()} />);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      `Satu tautan baru setiap 3 jam. Anda bisa membuat tautan berikutnya pada ${formatTime(next, 'id')}.`,
    );
    expect(screen.getByRole('button', { name: 'Buat tautan' })).toBeDisabled();
  });

  it("says the link could not be created when the server's answer never came", async () => {
    fakeApi.on('post', '/api/v1/links', fakeApi.unreachable());
    const user = userEvent.setup();
    await renderAt('/dashboard', <LinkGenerator locale="en" onCreated={jest.fn()} onSeeHistory={jest.fn()} />);
    await user.type(screen.getByRole('textbox', { name: 'Link title' }), 'Dad');
    await user.click(screen.getByRole('button', { name: 'Generate link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The link could not be created. Please try again.');
  });

  it('shows the time a refusal gives', async () => {
    const next = new Date(Date.now() + 3_600_000).toISOString();
    fakeApi.on('post', '/api/v1/links', fakeApi.fail(429, 'Too soon', { nextAllowedAt: next }));
    const user = userEvent.setup();
    await renderAt('/dashboard', <LinkGenerator locale="en" onCreated={jest.fn()} onSeeHistory={jest.fn()} />);
    await user.type(screen.getByRole('textbox', { name: 'Link title' }), 'Dad');
    await user.click(screen.getByRole('button', { name: 'Generate link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      `One new link every 3 hours. You can create the next one on ${formatTime(next, 'en')}.`,
    );
    expect(screen.getByRole('button', { name: 'Generate link' })).toBeDisabled();
  });

  it.each([
    {
      url: '/dashboard',
      locale: 'en' as const,
      ui: { title: 'Link title', file: 'Or choose an audio file', text: 'Text beside the voice message (optional)' },
      generate: 'Generate link',
      phone: 'The text with the voice message cannot contain phone numbers.',
      link: 'The text with the voice message cannot contain links or email addresses.',
    },
    {
      url: '/id/dashboard',
      locale: 'id' as const,
      ui: { title: 'Judul tautan', file: 'Atau pilih berkas audio', text: 'Teks untuk pesan suara (opsional)' },
      generate: 'Buat tautan',
      phone: 'Teks pesan suara tidak boleh berisi nomor telepon.',
      link: 'Teks pesan suara tidak boleh berisi tautan atau alamat email.',
    },
  ])(
    'at $url, refuses a voice note text with a phone number or a link before sending',
    async ({ url, locale, ui, generate, phone, link: linkRefusal }) => {
      fakeApi.on('post', '/api/v1/voice-notes', {
        voiceNote: { id: 'n-1', durationMs: 3000, mediaType: 'audio/webm', text: null, recordedTime: '' },
      });
      fakeApi.on('post', '/api/v1/links', { request: link });
      const user = userEvent.setup();
      await renderAt(url, <LinkGenerator locale={locale} onCreated={jest.fn()} onSeeHistory={jest.fn()} />);
      await user.type(screen.getByRole('textbox', { name: ui.title }), 'Mum');
      const audio = new File(['audio'], 'note.webm', { type: 'audio/webm' });
      fireEvent.change(screen.getByLabelText(ui.file), { target: { files: [audio] } });
      const text = await screen.findByRole('textbox', { name: ui.text });

      await user.type(text, 'BCA: rekening diblokir, hubungi 0812 3456 7890');
      expect(text).toHaveAccessibleDescription(expect.stringContaining(phone));
      expect(screen.getByRole('button', { name: generate })).toBeDisabled();
      await user.clear(text);
      await user.type(text, 'Buka bca-verify.top');
      expect(text).toHaveAccessibleDescription(expect.stringContaining(linkRefusal));
      expect(screen.getByRole('button', { name: generate })).toBeDisabled();
      expect(fakeApi.calls('post', '/api/v1/links')).toEqual([]);

      // Ordinary words and a time go through.
      await user.clear(text);
      await user.type(text, "It's me, at 5 pm");
      expect(screen.queryByText(phone)).not.toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: generate }));
      await waitFor(() =>
        expect(fakeApi.calls('post', '/api/v1/links').map((call) => call.body)).toEqual([
          { title: 'Mum', locale, voiceNote: { id: 'n-1', text: "It's me, at 5 pm" } },
        ]),
      );
    },
  );
});
