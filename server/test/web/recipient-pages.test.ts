import { recipientDataBlock, withLanguageSwitchQuery } from '../../src/web/recipient-pages';

describe('a recipient’s page rendered for its link', () => {
  it('gives the page’s script its data in a block no text in it can end', () => {
    const block = recipientDataBlock('/enter-link', '?token=abc', {
      kind: 'ready',
      link: {
        requesterName: '</script><script>alert(1)</script>\u2028',
        channel: 'link',
        state: 'open',
        expiresAt: '2030-01-01T00:00:00.000Z',
        liveUntil: null,
        canOptOut: false,
        shared: { approximate: false, precise: false },
        voiceNote: { durationMs: 12_000, text: '</script>' },
        voiceReply: null,
      },
    });
    expect(block.startsWith('<script type="application/json" id="recipient-data">')).toBe(true);
    const inside = block.slice(block.indexOf('>') + 1, block.lastIndexOf('</script>'));
    expect(inside).not.toContain('<');
    expect(inside).not.toContain('\u2028');
    expect(JSON.parse(inside).link.link.requesterName).toBe('</script><script>alert(1)</script>\u2028');
  });

  it('gives the page its link exactly as GET …/links/{token} answers it: only what the API’s schema names', () => {
    const openLink = {
      requesterName: 'Budi',
      channel: 'sms' as const,
      state: 'sharing' as const,
      expiresAt: '2030-01-01T00:00:00.000Z',
      liveUntil: null,
      canOptOut: true,
      shared: { approximate: true, precise: false },
      voiceNote: null,
      voiceReply: null,
    };
    // A field the route's answer does not carry (here the recipient's number) never reaches the page.
    const block = recipientDataBlock('/share', '?token=abc', {
      kind: 'ready',
      link: { ...openLink, target: '+6281234567890' } as typeof openLink,
    });
    const data = JSON.parse(block.slice(block.indexOf('>') + 1, block.lastIndexOf('</script>')));
    expect(data.link).toEqual({ kind: 'ready', link: openLink });
    expect(block).not.toContain('6281234567890');
  });

  it('refuses to give the page a link the API’s schema does not describe', () => {
    const link = {
      requesterName: 'Budi',
      channel: 'sms' as const,
      state: 'opened' as 'open',
      expiresAt: '2030-01-01T00:00:00.000Z',
      liveUntil: null,
      canOptOut: true,
      shared: { approximate: false, precise: false },
      voiceNote: null,
      voiceReply: null,
    };
    expect(() => recipientDataBlock('/enter-link', '?token=abc', { kind: 'ready', link })).toThrow(/state/);
  });

  it('makes the language switch keep the link’s token (escaped for the attribute)', () => {
    const html = '<header><a class="language-switch" href="/id/enter-link?hl=id" hrefLang="id">Bahasa</a></header>';
    expect(withLanguageSwitchQuery(html, '?token=a-b_c&action=opt-out')).toContain(
      'href="/id/enter-link?token=a-b_c&amp;action=opt-out&amp;hl=id"',
    );
    // A chosen language in the query is replaced, not repeated.
    expect(withLanguageSwitchQuery(html, '?token=t&hl=en')).toContain('href="/id/enter-link?token=t&amp;hl=id"');
  });
});
