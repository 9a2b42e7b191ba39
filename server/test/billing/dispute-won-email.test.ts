import { disputeWonEmail } from '../../src/billing/emails';

describe('the email of a dispute the operator won', () => {
  const facts = {
    displayName: 'Sari',
    amount: 99,
    currency: 'USD',
    paidAt: new Date('2026-11-20T08:00:00Z'),
    validUntil: new Date('2026-12-20T08:00:00Z'),
  };

  it('says in Indonesian that the subscription is back, and whether it renews', () => {
    const renewing = disputeWonEmail('id', { ...facts, renews: true });
    expect(renewing.subject).toBe('Langganan Kabari Anda aktif kembali');
    expect(renewing.text).toContain('pembayaran itu tetap sah');
    expect(renewing.text).toContain('diperpanjang otomatis seperti biasa');
    expect(disputeWonEmail('id', { ...facts, renews: false }).text).toContain('karena Anda sudah membatalkannya');
  });

  it('says it in English', () => {
    const email = disputeWonEmail('en', { ...facts, renews: false });
    expect(email.subject).toBe('Your Kabari subscription is active again');
    expect(email.text).toContain('does not renew, as you had cancelled it before');
    expect(email.html).toContain('the payment stands');
  });
});
