import { render, screen } from '@testing-library/react';
import { DBIP_URL, DbipAttribution } from './dbip-attribution';

describe('DbipAttribution', () => {
  it('links to DB-IP in a new tab, as the server’s attribution does', () => {
    render(<DbipAttribution>IP location by DB-IP</DbipAttribution>);
    const link = screen.getByRole('link', { name: 'IP location by DB-IP' });
    expect(DBIP_URL).toBe('https://db-ip.com/');
    expect(link).toHaveAttribute('href', 'https://db-ip.com/');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  });
});
