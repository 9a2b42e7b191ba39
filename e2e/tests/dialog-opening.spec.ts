import { chooseMessageInFacts, signInAsSubscriber } from '../support/app-helpers';
import { testFromOwnAddress as test, expect } from '../support/fixtures';
import { signUpSubscriber } from '../support/subscriber';

// The tests' own helper against the way an antd dialog opens (see dialogOpened in support/app-helpers.ts): a number
// looked up before answers from the server's cache, so the facts dialog's Choose a message is enabled while the
// dialog is still in its first, transparent step. A press there, released once the dialog starts growing, clicks
// nothing: whole runs lost that click three times in about fifty. Here the page's animation frames are held, so the
// dialog stays in that step until the test lets it go on.
test('the helper presses Choose a message only once the facts dialog is shown whole', async ({
  page,
  context,
  baseURL,
}) => {
  await signInAsSubscriber(context, baseURL!, await signUpSubscriber(baseURL!, { displayName: 'Opening Step' }));
  await page.goto('/dashboard');
  const search = page.getByRole('region', { name: 'New search' });
  await search.getByLabel('Mobile number').fill('+62 812-3456-7031');
  const facts = page.getByRole('dialog', { name: 'About this number' });
  const choose = facts.getByRole('button', { name: 'Choose a message' });
  const message = page.getByRole('dialog', { name: 'Choose a message' });
  // Looked up once: the server keeps the answer.
  await search.getByRole('button', { name: 'Find' }).click();
  await expect(choose).toBeEnabled();
  await facts.getByRole('button', { name: 'Cancel' }).click();
  await expect(facts).toBeHidden();

  await page.clock.install();
  await page.clock.pauseAt(Date.now() + 1_000);
  await search.getByRole('button', { name: 'Find' }).click();
  // The held first step: enabled, in its place, transparent.
  await expect(choose).toBeEnabled();
  await expect(facts).toHaveCSS('opacity', '0');
  // From here on, each press on the page and how opaque the dialog was then.
  await page.evaluate(() => {
    const seen: string[] = [];
    Object.assign(window, { presses: seen });
    window.addEventListener(
      'pointerdown',
      () => {
        const dialog = document.querySelector('[role="dialog"]');
        seen.push(dialog ? getComputedStyle(dialog).opacity : 'no dialog');
      },
      true,
    );
  });

  const choosing = chooseMessageInFacts(facts, message, 'Choose a message');
  // Whether the helper presses while the dialog is held: a press would come within a few frames, and the absence of
  // one needs a window to be seen in.
  await page
    .waitForFunction(() => (window as unknown as { presses: string[] }).presses.length > 0, undefined, {
      timeout: 1_500,
    })
    .catch(() => undefined);
  await page.clock.resume();
  await choosing;
  await expect(message).toBeVisible();
  // Every press the helper made met the dialog shown whole.
  expect(await page.evaluate(() => (window as unknown as { presses: string[] }).presses)).toEqual(['1']);
});

test('for someone who asked their system for less motion, a dialog appears without growing or fading in', async ({
  page,
  context,
  baseURL,
}) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await signInAsSubscriber(context, baseURL!, await signUpSubscriber(baseURL!, { displayName: 'Still Screen' }));
  await page.goto('/dashboard');
  const search = page.getByRole('region', { name: 'New search' });
  await search.getByLabel('Mobile number').fill('+62 812-3456-7032');
  // Each frame from here on, once there is a dialog: its opacity and its transform.
  await page.evaluate(() => {
    const frames: string[] = [];
    Object.assign(window, { frames });
    const sample = () => {
      const dialog = document.querySelector('[role="dialog"]');
      if (dialog) frames.push(`${getComputedStyle(dialog).opacity} ${getComputedStyle(dialog).transform}`);
      if (frames.length < 20) requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
  });
  await search.getByRole('button', { name: 'Find' }).click();
  await expect(page.getByRole('dialog', { name: 'About this number' })).toBeVisible();
  const frames = () => page.evaluate(() => (window as unknown as { frames: string[] }).frames);
  await expect.poll(async () => (await frames()).length).toBe(20);
  // At most a frame of preparing (not shown yet), then shown whole: never part-transparent, never scaled.
  const seen = await frames();
  expect(seen.filter((frame) => frame !== '1 none' && frame !== '0 none')).toEqual([]);
  expect(seen.slice(-1)).toEqual(['1 none']);
});
