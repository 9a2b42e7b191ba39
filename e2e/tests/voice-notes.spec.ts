import { chromium, type Locator, type Page } from '@playwright/test';
import { axeViolations } from '../support/accessibility';
import { signInAsSubscriber } from '../support/app-helpers';
import { chromiumArgs, requireDesktopChromium } from '../support/chromium';
import { test, expect } from '../support/fixtures';
import { signUpSubscriber } from '../support/subscriber';

// Voice messages end to end in the production build: Chromium's fake microphone (a steady tone, see chromiumArgs)
// records on the dashboard and on the recipient's thank-you page; the server reads and keeps each recording; the
// other side plays it in the browser's own player.
test.describe.configure({ timeout: 90_000 });

const texts = {
  en: {
    dashboard: '/dashboard',
    newSearch: 'New search',
    byLink: 'By link',
    linkTitle: 'Link title',
    generate: 'Generate link',
    yourLink: 'Your link',
    record: 'Record a voice message',
    stop: 'Stop recording',
    recordingAt: (seconds: number) => new RegExp(`Recording… 0:0${seconds} of 1:00`),
    saved: /^Voice message, 0:0\d$/,
    text: 'Text beside the voice message (optional)',
    chooseFile: 'Or choose an audio file',
    notAudio: /This file is not a voice message Kabari can play/,
    tooBig: 'The voice message is too large: at most 1 MB.',
    from: (name: string) => new RegExp(`^Voice message from ${name}, 0:0\\d$`),
    wrote: (name: string, text: string) => `${name} wrote: “${text}”`,
    share: 'Share my location',
    replyTitle: 'Reply by voice',
    showMap: 'Show on map',
    reply: /^Voice reply from Mum, 0:0\d, recorded /,
    erase: 'Stop and erase',
    eraseConfirm: 'Yes, stop and erase',
  },
  id: {
    dashboard: '/id/dashboard',
    newSearch: 'Pencarian baru',
    byLink: 'Tautan',
    linkTitle: 'Judul tautan',
    generate: 'Buat tautan',
    yourLink: 'Tautan Anda',
    record: 'Rekam pesan suara',
    stop: 'Berhenti merekam',
    recordingAt: (seconds: number) => new RegExp(`Merekam… 0:0${seconds} dari 1:00`),
    saved: /^Pesan suara, 0:0\d$/,
    text: 'Teks untuk pesan suara (opsional)',
    chooseFile: 'Atau pilih berkas audio',
    notAudio: /Berkas ini bukan pesan suara yang dapat diputar Kabari/,
    tooBig: 'Pesan suara terlalu besar: paling besar 1 MB.',
    from: (name: string) => new RegExp(`^Pesan suara dari ${name}, 0:0\\d$`),
    wrote: (name: string, text: string) => `${name} menulis: “${text}”`,
    share: 'Bagikan lokasi saya',
    replyTitle: 'Balas dengan suara',
    showMap: 'Lihat di peta',
    reply: /^Balasan suara dari Mum, 0:0\d, direkam /,
    erase: 'Berhenti dan hapus',
    eraseConfirm: 'Ya, hentikan dan hapus',
  },
};

/**
 * Records on the page's recorder until it shows `seconds`, and waits for the server to keep it. Answers how long the
 * page's MediaRecorder recorded, timed in the page (from its start() to its stop()), not by this test's clock.
 */
async function record(scope: Locator, say: (typeof texts)['en'], seconds: number): Promise<number> {
  await scope.page().evaluate(() => {
    const recorder = MediaRecorder.prototype;
    const times: number[] = [];
    (window as unknown as { recorderTimes: number[] }).recorderTimes = times;
    const { start, stop } = recorder;
    recorder.start = function (...args) {
      times.push(performance.now());
      return start.apply(this, args);
    };
    recorder.stop = function () {
      times.push(performance.now());
      return stop.apply(this);
    };
  });
  await scope.getByRole('button', { name: say.record }).click();
  await expect(scope.getByText(say.recordingAt(seconds))).toBeVisible({ timeout: 15_000 });
  await scope.getByRole('button', { name: say.stop }).click();
  await expect(scope.getByText(say.saved)).toBeVisible();
  const [started, stopped] = await scope
    .page()
    .evaluate(() => (window as unknown as { recorderTimes: number[] }).recorderTimes);
  return (stopped! - started!) / 1000;
}

/** Plays an <audio> element and answers its duration once the browser knows it (not Infinity). */
async function playedDuration(player: Locator): Promise<number> {
  return player.evaluate(async (element: HTMLAudioElement) => {
    await element.play();
    await new Promise<void>((resolve) => {
      const check = () => (Number.isFinite(element.duration) && element.duration > 0 ? resolve() : undefined);
      element.addEventListener('durationchange', check);
      element.addEventListener('loadedmetadata', check);
      check();
    });
    element.pause();
    return element.duration;
  });
}

for (const locale of ['en', 'id'] as const) {
  const say = texts[locale];

  test(`[${locale}] a voice note travels with a link, the recipient replies by voice, Stop and erase removes the reply`, async ({
    page,
    context,
    browser,
    baseURL,
  }) => {
    const subscriber = await signUpSubscriber(baseURL!, { displayName: 'Ana' });
    await signInAsSubscriber(context, baseURL!, subscriber);
    await page.goto(say.dashboard);
    const search = page.getByRole('region', { name: say.newSearch });
    await search.getByRole('tab', { name: say.byLink }).click();
    await search.getByLabel(say.linkTitle).fill('Mum');

    // A file that is not audio, then one too big: each refused with its reason, nothing kept.
    const chooser = search.getByLabel(say.chooseFile);
    await chooser.setInputFiles({ name: 'note.webm', mimeType: 'audio/webm', buffer: Buffer.from('not a recording') });
    await expect(search.getByTestId('voice-error')).toHaveText(say.notAudio);
    await chooser.setInputFiles({ name: 'long.ogg', mimeType: 'audio/ogg', buffer: Buffer.alloc(1_100_000, 1) });
    await expect(search.getByTestId('voice-error')).toHaveText(say.tooBig);

    const recorded = await record(search, say, 3);
    await search.getByLabel(say.text).fill('Ini Ana');
    expect(await axeViolations(page), 'the link step with a voice note').toEqual([]);
    await search.getByRole('button', { name: say.generate }).click();
    const url = await search.getByLabel(`${say.yourLink}: Mum`).inputValue();

    // The recipient, in a browser of their own: the note and its text before they decide; no audio until Play.
    const recipient = await browser.newContext({
      permissions: ['geolocation'],
      geolocation: { latitude: -6.2, longitude: 106.816, accuracy: 20 },
    });
    const consent = await recipient.newPage();
    const audioRequests: string[] = [];
    consent.on('request', (request) => {
      if (request.url().includes('/voice-note')) audioRequests.push(request.url());
    });
    await consent.goto(url);
    const player = consent.locator('audio');
    await expect(player).toHaveAccessibleName(say.from('Ana'));
    await expect(player).toHaveAttribute('preload', 'none');
    await expect(consent.getByText(say.wrote('Ana', 'Ini Ana'))).toBeVisible();
    expect(audioRequests).toEqual([]);
    expect(await axeViolations(consent), 'the consent page with a voice note').toEqual([]);
    const duration = await playedDuration(player);
    expect(Math.abs(duration - recorded)).toBeLessThan(0.5);

    // Share, then a reply by voice on the thank-you page.
    await consent.getByRole('button', { name: say.share }).click();
    const reply = consent.getByRole('region', { name: say.replyTitle });
    await expect(reply).toBeVisible({ timeout: 15_000 });
    await record(reply, say, 2);
    expect(await axeViolations(consent), 'the thank-you page with a voice reply').toEqual([]);

    // The requester hears it beside the positions, live.
    const row = page.getByTestId('request-row').filter({ hasText: 'Mum' });
    await row.getByRole('button', { name: say.showMap }).click();
    const heard = page.getByTestId('live-map').getByTestId('voice-reply').locator('audio');
    await expect(heard).toHaveAccessibleName(say.reply);
    expect(Math.abs((await playedDuration(heard)) - 2)).toBeLessThan(1);

    // Stop and erase: the reply goes with everything else the recipient shared.
    await consent.getByRole('button', { name: say.erase }).click();
    await consent.getByRole('button', { name: say.eraseConfirm }).click();
    await expect(page.getByTestId('live-map').getByTestId('voice-reply')).toHaveCount(0);
    await recipient.close();
  });
}

test('a refused microphone is explained, and an audio file can be chosen instead', async ({ baseURL }) => {
  // The desktop browser, headless, with no one to answer its microphone prompt: it refuses, as a person blocking the
  // site would (the headless shell has no prompt at all, and says the microphone is not supported).
  const browser = await chromium.launch({
    executablePath: requireDesktopChromium(),
    args: chromiumArgs.filter((arg) => arg !== '--use-fake-ui-for-media-stream'),
  });
  try {
    const context = await browser.newContext({ baseURL });
    const subscriber = await signUpSubscriber(baseURL!, { displayName: 'Budi' });
    await signInAsSubscriber(context, baseURL!, subscriber);
    const page: Page = await context.newPage();
    await page.goto(texts.id.dashboard);
    const search = page.getByRole('region', { name: texts.id.newSearch });
    await search.getByRole('tab', { name: texts.id.byLink }).click();
    await search.getByRole('button', { name: texts.id.record }).click();
    await expect(search.getByRole('alert')).toContainText('Kabari tidak dapat memakai mikrofon Anda');
    await expect(search.getByLabel(texts.id.chooseFile)).toBeEnabled();
  } finally {
    await browser.close();
  }
});
