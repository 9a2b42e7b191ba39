import { act, screen } from '@testing-library/react';
import { LIVE_POSITION_EVERY_MS } from '@kabari/shared/requests/live-sharing';
import { renderAt } from '../../../../jest/render-with-i18n';
import { LIVE_POSITION_OLD_AFTER_MS, PositionAge } from './position-age';

const recordedAt = '2026-11-22T05:00:00.000Z';
const age = () => screen.getByTestId('live-map-age').textContent;
const old = () => screen.queryByTestId('live-map-old');
const wait = (ms: number) => act(() => jest.advanceTimersByTime(ms));

describe('PositionAge', () => {
  beforeEach(() => {
    jest.useFakeTimers({ now: new Date(recordedAt) });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('writes how old the position is as it ages, by itself', async () => {
    await renderAt('/dashboard', <PositionAge recordedAt={recordedAt} live={false} locale="en" />);
    expect(age()).toBe('just now');
    wait(5_000);
    expect(age()).toBe('5 seconds ago');
    wait(20_000);
    expect(age()).toBe('25 seconds ago');
    wait(35_000);
    expect(age()).toBe('1 minute ago');
    wait(60_000);
    expect(age()).toBe('2 minutes ago');
    wait(3 * 60 * 60_000);
    expect(age()).toBe('3 hours ago');
    // Not live: nothing is expected, so nothing is late.
    expect(old()).toBeNull();
  });

  it('marks a live position old, in words, once the next one is late', async () => {
    await renderAt('/dashboard', <PositionAge recordedAt={recordedAt} live locale="en" />);
    // Within the expected interval and the fix's own age: not old.
    wait(LIVE_POSITION_EVERY_MS);
    expect(old()).toBeNull();
    wait(LIVE_POSITION_OLD_AFTER_MS - LIVE_POSITION_EVERY_MS - 1);
    expect(old()).toBeNull();
    wait(1);
    expect(old()).toHaveTextContent('Old: no newer position has come yet');
    expect(age()).toBe(`${LIVE_POSITION_OLD_AFTER_MS / 1000} seconds ago`);
  });

  it('starts again from "just now" when a newer position comes', async () => {
    const { rerender } = await renderAt('/dashboard', <PositionAge recordedAt={recordedAt} live locale="en" />);
    wait(2 * 60_000);
    expect(age()).toBe('2 minutes ago');
    expect(old()).not.toBeNull();
    rerender(<PositionAge recordedAt={new Date(Date.now()).toISOString()} live locale="en" />);
    expect(age()).toBe('just now');
    expect(old()).toBeNull();
  });

  it('speaks Indonesian', async () => {
    await renderAt('/id/dashboard', <PositionAge recordedAt={recordedAt} live locale="id" />);
    expect(age()).toBe('baru saja');
    wait(2 * 60_000);
    expect(age()).toBe('2 menit yang lalu');
    expect(old()).toHaveTextContent('Sudah lama: belum ada posisi yang lebih baru');
  });
});
