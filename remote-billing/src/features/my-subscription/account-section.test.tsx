import { act, cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ApiPathWith } from '@kabari/shared/api/api-types';
import { useUserStore } from '@kabari/shared/stores/session-store';
import { renderAt } from '../../../../jest/render-with-i18n';
import { AccountSection } from './account-section';
import { signedInUser } from '../../../../jest/signed-in-user';
import { fakeApi } from '../../../../jest/fake-api';

// The RSA step is the shared module's own business (tested there): here a password shows through as rsa(…).
jest.mock('@kabari/shared/account/password-encryption', () => ({
  encryptPassword: jest.fn(async (password: string) => `rsa(${password})`),
}));

jest.setTimeout(30_000);

const userInfo = (email: string, displayName = 'Rina') => signedInUser({ email, displayName });

const thisDevice = {
  id: '00000000-0000-4000-8000-000000000001',
  userAgent: 'Firefox on Linux',
  createdAt: '2026-11-20T10:00:00.000Z',
  lastSeenAt: '2026-11-24T09:00:00.000Z',
  current: true,
};
const phone = {
  id: '00000000-0000-4000-8000-000000000002',
  userAgent: 'Safari on iPhone',
  createdAt: '2026-11-21T10:00:00.000Z',
  lastSeenAt: '2026-11-23T09:00:00.000Z',
  current: false,
};

let sessions = [thisDevice, phone];
const allNotices = { shared: true, declined: true, stopped: true, withdrawn: true, live_ended: true };

async function openAt(url: string) {
  await act(async () => {
    await renderAt(url, <AccountSection />);
  });
}

const part = (name: string) => screen.getByRole('region', { name });
const posted = <P extends ApiPathWith<'post'>>(path: P) => fakeApi.calls('post', path).map((call) => call.body);
/** The writes sent so far: the reads of the page aside. */
const writes = () => fakeApi.called().filter((call) => call.startsWith('POST '));

describe('the account section', () => {
  beforeEach(() => {
    sessions = [thisDevice, phone];
    useUserStore.getState().setUser(userInfo('rina@example.com'));
    fakeApi.on('get', '/api/v1/personnal/sessions', () => ({ items: sessions }));
    fakeApi.on('get', '/api/v1/personnal/account/notices', () => ({
      email: { ...allNotices },
      push: { ...allNotices },
    }));
    fakeApi.on('get', '/api/v1/push/key', { publicKey: 'BPushKeyOfTheServer' });
  });

  afterEach(() => {
    cleanup();
  });

  it('changes the display name', async () => {
    fakeApi.on('post', '/api/v1/personnal/account/profile', { user: userInfo('rina@example.com', 'Budi') });
    await openAt('/dashboard/modules/MySubscription');
    const profile = part('Your name');
    const name = within(profile).getByLabelText('Display name');
    expect(name).toHaveValue('Rina');
    await userEvent.clear(name);
    await userEvent.click(within(profile).getByRole('button', { name: 'Save' }));
    expect(await within(profile).findByText('Please fill in your name')).toBeInTheDocument();
    expect(writes()).toEqual([]);
    await userEvent.type(name, '  Budi ');
    await userEvent.click(within(profile).getByRole('button', { name: 'Save' }));
    expect(await within(profile).findByRole('status')).toHaveTextContent('Saved.');
    expect(posted('/api/v1/personnal/account/profile')).toEqual([{ displayName: 'Budi' }]);
    expect(useUserStore.getState().user?.userCacheInfo.displayName).toBe('Budi');
  });

  it.each([
    [
      '/dashboard/modules/MySubscription',
      'Your name',
      'Display name',
      'Save',
      'A name cannot contain a web address or an email address',
      "A name cannot contain the name of a bank or a payment service, nor Kabari's",
    ],
    [
      '/id/dashboard/modules/MySubscription',
      'Nama Anda',
      'Nama tampilan',
      'Simpan',
      'Nama tidak boleh berisi alamat web atau alamat email',
      'Nama tidak boleh memuat nama bank, layanan pembayaran, atau Kabari',
    ],
  ])(
    'at %s, refuses a name that carries a link or passes for a bank, without asking the server',
    async (url, title, label, save, refusal, brandRefusal) => {
      await openAt(url);
      const profile = part(title);
      const name = within(profile).getByLabelText(label);
      await userEvent.clear(name);
      await userEvent.type(name, 'BCA Bank - verify: bca-verify.top');
      await userEvent.click(within(profile).getByRole('button', { name: save }));
      expect(await within(profile).findByText(refusal)).toBeInTheDocument();
      await userEvent.clear(name);
      await userEvent.type(name, 'Bank BCA Security');
      await userEvent.click(within(profile).getByRole('button', { name: save }));
      expect(await within(profile).findByText(brandRefusal)).toBeInTheDocument();
      expect(writes()).toEqual([]);
    },
  );

  it('changes the email in two steps: a code to the new address, then the code', async () => {
    fakeApi.on('post', '/api/v1/personnal/account/email', { success: true });
    fakeApi.on('post', '/api/v1/personnal/account/email/confirm', { user: userInfo('budi@example.com') });
    await openAt('/dashboard/modules/MySubscription');
    const email = part('Email address');
    expect(within(email).getByText('Current email: rina@example.com')).toBeInTheDocument();
    await userEvent.type(within(email).getByLabelText('New email address'), 'Budi@Example.com');
    await userEvent.type(within(email).getByLabelText('Current password'), 'first-pass');
    await userEvent.click(within(email).getByRole('button', { name: 'Send a code to the new address' }));

    expect(await within(email).findByRole('status')).toHaveTextContent(
      'We sent a code to budi@example.com. Enter it below: your email address changes only then.',
    );
    expect(posted('/api/v1/personnal/account/email')).toEqual([
      { newEmail: 'budi@example.com', password: 'rsa(first-pass)' },
    ]);
    // Nothing changed yet.
    expect(within(email).getByText('Current email: rina@example.com')).toBeInTheDocument();

    await userEvent.click(within(email).getByRole('button', { name: 'Confirm the new address' }));
    expect(await within(email).findByText('Please enter the verification code')).toBeInTheDocument();
    await userEvent.type(within(email).getByLabelText('Verification code'), '123456');
    await userEvent.click(within(email).getByRole('button', { name: 'Confirm the new address' }));

    expect(await within(email).findByText('Current email: budi@example.com')).toBeInTheDocument();
    expect(within(email).getByRole('status')).toHaveTextContent(
      'Your email address is now budi@example.com. We told your previous address about the change.',
    );
    expect(posted('/api/v1/personnal/account/email/confirm')).toEqual([
      { newEmail: 'budi@example.com', verificationCode: '123456' },
    ]);
    expect(useUserStore.getState().user?.userCacheInfo.email).toBe('budi@example.com');
    // Back at step one, empty, for another change.
    expect(within(email).getByLabelText('New email address')).toHaveValue('');
  });

  it('says why a change of email failed, in Indonesian, and can go back to another address', async () => {
    fakeApi.on('post', '/api/v1/personnal/account/email', { success: true });
    fakeApi.on(
      'post',
      '/api/v1/personnal/account/email/confirm',
      fakeApi.fail(400, 'Kode verifikasi salah atau sudah kedaluwarsa.'),
    );
    await openAt('/id/dashboard/modules/MySubscription');
    const email = part('Alamat email');
    await userEvent.type(within(email).getByLabelText('Alamat email baru'), 'budi@example.com');
    await userEvent.type(within(email).getByLabelText('Kata sandi saat ini'), 'first-pass');
    await userEvent.click(within(email).getByRole('button', { name: 'Kirim kode ke alamat baru' }));
    expect(await within(email).findByRole('status')).toHaveTextContent('Kami sudah mengirim kode ke budi@example.com.');

    await userEvent.type(within(email).getByLabelText('Kode verifikasi'), '000000');
    await userEvent.click(within(email).getByRole('button', { name: 'Konfirmasi alamat baru' }));
    expect(await within(email).findByRole('alert')).toHaveTextContent(
      'Tidak berhasil: Kode verifikasi salah atau sudah kedaluwarsa.',
    );
    expect(useUserStore.getState().user?.userCacheInfo.email).toBe('rina@example.com');

    await userEvent.click(within(email).getByRole('button', { name: 'Pakai alamat lain' }));
    expect(within(email).getByLabelText('Alamat email baru')).toBeInTheDocument();
    expect(within(email).queryByLabelText('Kode verifikasi')).not.toBeInTheDocument();
  });

  it('an address in use is refused at step one with the server’s sentence', async () => {
    fakeApi.on('post', '/api/v1/personnal/account/email', fakeApi.fail(409, 'This email address is already in use'));
    await openAt('/dashboard/modules/MySubscription');
    const email = part('Email address');
    await userEvent.type(within(email).getByLabelText('New email address'), 'taken@example.com');
    await userEvent.type(within(email).getByLabelText('Current password'), 'first-pass');
    await userEvent.click(within(email).getByRole('button', { name: 'Send a code to the new address' }));
    expect(await within(email).findByRole('alert')).toHaveTextContent(
      'That did not work: This email address is already in use',
    );
    expect(within(email).queryByLabelText('Verification code')).not.toBeInTheDocument();
  });

  it('changes the password (Indonesian), asking for 8 characters first', async () => {
    fakeApi.on('post', '/api/v1/personnal/account/password', { success: true });
    await openAt('/id/dashboard/modules/MySubscription');
    const password = part('Kata sandi');
    await userEvent.type(within(password).getByLabelText('Kata sandi saat ini'), 'first-pass');
    await userEvent.type(within(password).getByLabelText('Kata sandi baru'), 'short');
    await userEvent.click(within(password).getByRole('button', { name: 'Ganti kata sandi' }));
    expect(await within(password).findByText('Gunakan minimal 8 karakter')).toBeInTheDocument();
    expect(writes()).toEqual([]);
    await userEvent.type(within(password).getByLabelText('Kata sandi baru'), '-but-longer');
    await userEvent.click(within(password).getByRole('button', { name: 'Ganti kata sandi' }));
    expect(await within(password).findByRole('status')).toHaveTextContent('Kata sandi Anda sudah diganti.');
    expect(posted('/api/v1/personnal/account/password')).toEqual([
      { password: 'rsa(first-pass)', newPassword: 'rsa(short-but-longer)' },
    ]);
  });

  it('lists the sessions and ends another device’s, never offering to end this one from the list', async () => {
    fakeApi.on('post', '/api/v1/personnal/sessions/{id}/revoke', () => {
      sessions = [thisDevice];
      return { success: true };
    });
    await openAt('/dashboard/modules/MySubscription');
    const list = part('Where you are signed in');
    const items = await within(list).findAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(within(items[0]!).getByText('Firefox on Linux')).toBeInTheDocument();
    expect(within(items[0]!).getByText('This device')).toBeInTheDocument();
    expect(within(items[0]!).queryByRole('button')).not.toBeInTheDocument();
    // Dates in the reader's time zone: only their shape is pinned.
    expect(items[1]!.querySelector('small')).toHaveTextContent(
      /^Signed in 2\d Nov 2026, \d\d:\d\d · last active 2\d Nov 2026, \d\d:\d\d$/,
    );
    await userEvent.click(within(items[1]!).getByRole('button', { name: 'End session' }));
    const [revoked] = fakeApi.calls('post', '/api/v1/personnal/sessions/{id}/revoke');
    expect(revoked?.path).toEqual({ id: phone.id });
    expect(revoked?.body).toBeUndefined();
    expect(revoked?.options).toEqual({ toastErrors: false });
    expect(await within(list).findAllByRole('listitem')).toHaveLength(1);
    expect(within(list).queryByText('Safari on iPhone')).not.toBeInTheDocument();
  });

  it('shows the sessions in Indonesian', async () => {
    await openAt('/id/dashboard/modules/MySubscription');
    const list = part('Perangkat tempat Anda masuk');
    expect(await within(list).findByText('Perangkat ini')).toBeInTheDocument();
    expect(within(list).getByRole('button', { name: 'Akhiri sesi' })).toBeInTheDocument();
  });

  it('turns an email about requests off, saved as it is switched', async () => {
    fakeApi.on('post', '/api/v1/personnal/account/notices', (body) => ({
      email: { ...allNotices, ...body.email },
      push: { ...allNotices },
    }));
    await openAt('/dashboard/modules/MySubscription');
    const byEmail = await within(part('Notices about your requests')).findByRole('list', { name: 'By email' });
    const declined = within(byEmail).getByRole('checkbox', { name: 'When they decline' });
    expect(declined).toBeChecked();
    await userEvent.click(declined);
    const notices = part('Notices about your requests');
    expect(await within(notices).findByRole('status')).toHaveTextContent('Saved.');
    expect(within(byEmail).getByRole('checkbox', { name: 'When they decline' })).not.toBeChecked();
    expect(within(byEmail).getByRole('checkbox', { name: 'When they share their location' })).toBeChecked();
    const byPush = within(notices).getByRole('list', { name: 'As notifications' });
    expect(within(byPush).getByRole('checkbox', { name: 'When they decline' })).toBeChecked();
    expect(posted('/api/v1/personnal/account/notices')).toEqual([{ email: { declined: false } }]);
  });

  it('names the notices in Indonesian, and says when they could not be saved', async () => {
    fakeApi.on('post', '/api/v1/personnal/account/notices', fakeApi.fail(503, 'Server tidak menjawab'));
    await openAt('/id/dashboard/modules/MySubscription');
    const notices = part('Pemberitahuan tentang permintaan Anda');
    const byPush = await within(notices).findByRole('list', { name: 'Sebagai notifikasi' });
    await userEvent.click(within(byPush).getByRole('checkbox', { name: 'Saat ia berhenti berbagi' }));
    expect(await within(notices).findByRole('alert')).toHaveTextContent('Server tidak menjawab');
    expect(within(byPush).getByRole('checkbox', { name: 'Saat ia berhenti berbagi' })).toBeChecked();
    expect(posted('/api/v1/personnal/account/notices')).toEqual([{ push: { stopped: false } }]);
    // jsdom has no service worker: this browser cannot show notifications, and says so.
    expect(
      within(notices).getByText('Browser ini tidak dapat menampilkan notifikasi Kabari. Email tetap dikirim.'),
    ).toBeInTheDocument();
  });

  describe('notifications in this browser', () => {
    const subscription = {
      endpoint: 'https://push.example/abc',
      toJSON: () => ({ endpoint: 'https://push.example/abc', keys: { p256dh: 'BKey', auth: 'secret' } }),
      unsubscribe: jest.fn(async () => true),
    };
    let permission: NotificationPermission;
    let subscribed: typeof subscription | null;
    const pushManager = {
      getSubscription: jest.fn(async () => subscribed),
      subscribe: jest.fn(async () => (subscribed = subscription)),
    };

    beforeEach(() => {
      permission = 'default';
      subscribed = null;
      Object.assign(window, {
        PushManager: function PushManager() {},
        Notification: {
          get permission() {
            return permission;
          },
          requestPermission: jest.fn(async () => permission),
        },
      });
      Object.defineProperty(navigator, 'serviceWorker', {
        configurable: true,
        value: {
          getRegistration: jest.fn(async () => ({ pushManager })),
          register: jest.fn(async () => ({ pushManager })),
          ready: Promise.resolve({ pushManager }),
        },
      });
      fakeApi.on('post', '/api/v1/push/test', { devices: 1 });
      fakeApi.on('post', '/api/v1/push/subscriptions', { devices: 1 });
      fakeApi.on('post', '/api/v1/push/subscriptions/remove', { removed: true });
    });

    afterEach(() => {
      Reflect.deleteProperty(navigator, 'serviceWorker');
      Reflect.deleteProperty(window, 'PushManager');
      Reflect.deleteProperty(window, 'Notification');
    });

    it('turns them on with the server’s key, sends a test notification, and turns them off', async () => {
      await openAt('/dashboard/modules/MySubscription');
      const notices = part('Notices about your requests');
      expect(await within(notices).findByText('Notifications are off in this browser.')).toBeInTheDocument();
      permission = 'granted';
      await userEvent.click(within(notices).getByRole('button', { name: 'Turn on notifications in this browser' }));
      expect(await within(notices).findByRole('status')).toHaveTextContent('Notifications are on.');
      expect(navigator.serviceWorker.register).toHaveBeenCalledWith('/sw.js', { scope: '/' });
      expect(pushManager.subscribe).toHaveBeenCalledWith({
        userVisibleOnly: true,
        applicationServerKey: 'BPushKeyOfTheServer',
      });
      expect(posted('/api/v1/push/subscriptions')).toEqual([
        { endpoint: 'https://push.example/abc', keys: { p256dh: 'BKey', auth: 'secret' } },
      ]);

      await userEvent.click(within(notices).getByRole('button', { name: 'Send a test notification' }));
      expect(await within(notices).findByText(/A test notification is on its way .* \(1\)\./)).toBeInTheDocument();
      expect(posted('/api/v1/push/test')).toHaveLength(1);

      await userEvent.click(within(notices).getByRole('button', { name: 'Turn off in this browser' }));
      expect(await within(notices).findByRole('status')).toHaveTextContent(
        "Turned off: this browser will no longer get Kabari's notifications.",
      );
      expect(within(notices).getByText('Notifications are off in this browser.')).toBeInTheDocument();
      expect(posted('/api/v1/push/subscriptions/remove')).toEqual([{ endpoint: 'https://push.example/abc' }]);
      expect(subscription.unsubscribe).toHaveBeenCalled();
    });

    it('explains a refusal by the browser, in Indonesian', async () => {
      await openAt('/id/dashboard/modules/MySubscription');
      const notices = part('Pemberitahuan tentang permintaan Anda');
      permission = 'denied';
      await userEvent.click(await within(notices).findByRole('button', { name: 'Aktifkan notifikasi di browser ini' }));
      expect(await within(notices).findByRole('alert')).toHaveTextContent(
        'Browser memblokir notifikasi untuk Kabari. Izinkan di pengaturannya untuk situs ini, lalu coba lagi.',
      );
      expect(within(notices).getByText(/Notifikasi dari Kabari diblokir di browser ini/)).toBeInTheDocument();
      expect(posted('/api/v1/push/subscriptions')).toEqual([]);
    });
  });

  it('downloads my data under the server’s file name', async () => {
    fakeApi.on(
      'get',
      '/api/v1/personnal/account/export',
      fakeApi.file(new Blob(['PK'], { type: 'application/zip' }), {
        'content-disposition': 'attachment; filename="kabari-my-data-2026-11-24.zip"',
      }),
    );
    const created = jest.fn(() => 'blob:kabari-export');
    Object.assign(URL, { createObjectURL: created, revokeObjectURL: jest.fn() });
    const downloads: string[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      downloads.push(`${this.download} ${this.href}`);
    });
    try {
      await openAt('/id/dashboard/modules/MySubscription');
      const data = part('Data Anda');
      expect(within(data).getByText(/akun, sesi, permintaan, posisi, pembayaran/)).toBeInTheDocument();
      await userEvent.click(within(data).getByRole('button', { name: 'Ekspor data saya' }));
      expect(downloads).toEqual(['kabari-my-data-2026-11-24.zip blob:kabari-export']);
      expect(fakeApi.calls('get', '/api/v1/personnal/account/export')[0]?.options).toEqual(
        expect.objectContaining({ raw: true, responseType: 'blob' }),
      );
    } finally {
      click.mockRestore();
    }
  });

  it('a failed export says so', async () => {
    fakeApi.on('get', '/api/v1/personnal/account/export', fakeApi.unreachable());
    await openAt('/dashboard/modules/MySubscription');
    const data = part('Your data');
    await userEvent.click(within(data).getByRole('button', { name: 'Export my data' }));
    expect(await within(data).findByRole('alert')).toHaveTextContent(
      `That did not work: ${fakeApi.effects.networkErrorMessage()}`,
    );
  });

  it('deletes the account with the password, then signs out', async () => {
    fakeApi.on('post', '/api/v1/personnal/account/delete', (body) =>
      'password' in body && body.password === 'rsa(wrong)'
        ? fakeApi.fail(400, 'The password is incorrect.')
        : { success: true },
    );
    await openAt('/dashboard/modules/MySubscription');
    const deletion = part('Delete my account');
    expect(within(deletion).getByRole('radio', { name: 'My password' })).toBeChecked();
    await userEvent.type(within(deletion).getByLabelText('Current password'), 'wrong');
    await userEvent.click(within(deletion).getByRole('button', { name: 'Delete my account for good' }));
    expect(await within(deletion).findByRole('alert')).toHaveTextContent('The password is incorrect.');
    await userEvent.clear(within(deletion).getByLabelText('Current password'));
    await userEvent.type(within(deletion).getByLabelText('Current password'), 'delete-me-1');
    await userEvent.click(within(deletion).getByRole('button', { name: 'Delete my account for good' }));
    expect(await within(deletion).findByRole('status')).toHaveTextContent('Your account has been deleted.');
    expect(posted('/api/v1/personnal/account/delete')).toEqual([
      { password: 'rsa(wrong)' },
      { password: 'rsa(delete-me-1)' },
    ]);
    await userEvent.click(within(deletion).getByRole('button', { name: 'OK' }));
    expect(useUserStore.getState().user).toBeNull();
  });

  it('deletes the account with an emailed code (Indonesian)', async () => {
    fakeApi.on('post', '/api/v1/auth/sendCode', { success: true });
    fakeApi.on('post', '/api/v1/personnal/account/delete', { success: true });
    await openAt('/id/dashboard/modules/MySubscription');
    const deletion = part('Hapus akun saya');
    await userEvent.click(within(deletion).getByRole('radio', { name: 'Kode yang dikirim ke email saya' }));
    await userEvent.click(within(deletion).getByRole('button', { name: 'Kirim kode' }));
    expect(await within(deletion).findByText(/Kami sudah mengirim kode ke rina@example.com/)).toBeInTheDocument();
    expect(posted('/api/v1/auth/sendCode')).toEqual([{ email: 'rina@example.com', type: 3 }]);
    await userEvent.click(within(deletion).getByRole('button', { name: 'Hapus akun saya selamanya' }));
    expect(await within(deletion).findByText('Silakan masukkan kode verifikasi')).toBeInTheDocument();
    await userEvent.type(within(deletion).getByLabelText('Kode verifikasi'), '654321');
    await userEvent.click(within(deletion).getByRole('button', { name: 'Hapus akun saya selamanya' }));
    expect(await within(deletion).findByText(/Akun Anda sudah dihapus/)).toBeInTheDocument();
    expect(posted('/api/v1/personnal/account/delete')).toEqual([{ verificationCode: '654321' }]);
  });
});
