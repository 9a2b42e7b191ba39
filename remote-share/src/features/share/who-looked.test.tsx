import { act, screen } from '@testing-library/react';
import { renderRecipientPage } from '../../testing/render-recipient-page';
import { sharingLink } from '../../testing/share-fixtures';
import { fakeApi } from '../../../../jest/fake-api';
import type { MapViewsSeen } from '../../lib/share-api';
import { shareText } from '../../lib/share-text';
import SharePage from './share-page';
import { whoLookedText, WHO_LOOKED_EVERY_MS } from './who-looked';

const en = shareText('en');
const id = shareText('id');
// 15:00 local time on a day; the openings below are counted by the reader's own day.
const now = new Date(2026, 10, 27, 15, 0, 0).getTime();
const at = (hours: number, minutes = 0) => new Date(2026, 10, 27, hours, minutes).toISOString();

describe('who looked: the sentence', () => {
  it('says the requester never looked', () => {
    expect(whoLookedText({ lastSeenAt: null, openedAt: [] }, now, 'Ana', 'en', en)).toBe(
      'Ana has not looked at your position yet.',
    );
    expect(whoLookedText({ lastSeenAt: null, openedAt: [] }, now, 'Ana', 'id', id)).toBe(
      'Ana belum melihat posisi Anda.',
    );
  });

  it('says the requester is looking now, with today’s count', () => {
    const views = { lastSeenAt: new Date(now - 30_000).toISOString(), openedAt: [at(14, 58), at(9), at(8)] };
    expect(whoLookedText(views, now, 'Ana', 'en', en)).toBe('Ana is looking at your position now (3 times today).');
    expect(whoLookedText(views, now, 'Ana', 'id', id)).toBe('Ana sedang melihat posisi Anda (3 kali hari ini).');
  });

  it('says when the requester last looked, and how often today, in each language', () => {
    const views = { lastSeenAt: at(14, 58), openedAt: [at(14, 50)] };
    expect(whoLookedText(views, now, 'Ana', 'en', en)).toBe(
      'Ana last looked at your position 2 minutes ago (1 time today).',
    );
    expect(whoLookedText(views, now, 'Ana', 'id', id)).toBe(
      'Ana terakhir melihat posisi Anda 2 menit yang lalu (1 kali hari ini).',
    );
    const hoursAgo = { lastSeenAt: at(12, 0), openedAt: [at(11, 30), at(7)] };
    expect(whoLookedText(hoursAgo, now, 'Ana', 'en', en)).toBe(
      'Ana last looked at your position 3 hours ago (2 times today).',
    );
  });

  it('does not count openings of an earlier day', () => {
    const yesterday = new Date(2026, 10, 26, 10, 0).toISOString();
    const views = { lastSeenAt: yesterday, openedAt: [yesterday] };
    expect(whoLookedText(views, now, 'Ana', 'en', en)).toBe('Ana last looked at your position yesterday.');
    expect(whoLookedText(views, now, 'Ana', 'id', id)).toBe('Ana terakhir melihat posisi Anda kemarin.');
  });
});

describe('who looked on the thank-you page', () => {
  const link = { ...sharingLink, shared: { approximate: true, precise: false } };

  afterEach(() => jest.useRealTimers());

  it('asks once the page runs, then every half minute, and shows the answer', async () => {
    jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
    let views: MapViewsSeen = { lastSeenAt: null, openedAt: [] };
    fakeApi.on('get', '/api/v1/share/links/{token}', link);
    fakeApi.on('get', '/api/v1/share/links/{token}/views', () => views);
    renderRecipientPage('/id/share?token=tok', SharePage);
    expect(await screen.findByTestId('who-looked')).toHaveTextContent('Budi Santoso belum melihat posisi Anda.');

    views = { lastSeenAt: new Date().toISOString(), openedAt: [new Date().toISOString()] };
    await act(async () => {
      jest.advanceTimersByTime(WHO_LOOKED_EVERY_MS);
    });
    expect(screen.getByTestId('who-looked')).toHaveTextContent(
      'Budi Santoso sedang melihat posisi Anda (1 kali hari ini).',
    );
    const asked = fakeApi.calls('get', '/api/v1/share/links/{token}/views');
    expect(asked).toHaveLength(2);
    expect(asked[0]?.url).toBe('/api/v1/share/links/tok/views');
  });
});
