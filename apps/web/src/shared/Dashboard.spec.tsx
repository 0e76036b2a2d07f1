/** @jest-environment ./apps/web/test/jsdom-environment.mjs */
/**
 * A dashboard (docs/web-app.md#dashboards): one section per route with a section menu whose current link
 * says so; its own path shows the first section, an old anchor (/account#selling) redirects to its
 * route with the query kept, a hash route (/account/#/terminals/{id}/inbox) shows its section with the
 * address left alone; only the shown section is rendered; the document's title names the section, and
 * the section's heading is what the layout focuses after a move.
 */
import { describe, expect, it } from '@jest/globals';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { Dashboard, type DashboardSection } from './Dashboard';
import { matchDashboard, ROUTE_FOCUS_ATTRIBUTE } from './dashboard-routes';

const section = (slug: string, label: string, extra: Partial<DashboardSection> = {}): DashboardSection => ({
  path: `/account/${slug}`,
  label,
  anchors: [slug],
  render: () => (
    <section aria-labelledby={`${slug}-heading`}>
      <h2 id={`${slug}-heading`}>{label} heading</h2>
      <button type="button">Inside {label}</button>
    </section>
  ),
  ...extra,
});

const SECTIONS: [DashboardSection, ...DashboardSection[]] = [
  section('profile', 'Profile', { anchors: ['profile', 'email-heading'] }),
  section('selling', 'Selling'),
  section('terminals', 'Terminals', { hashRoute: /^#\/terminals\// }),
];

function Where() {
  const { pathname, search, hash } = useLocation();
  return <output aria-label="address">{`${pathname}${search}${hash}`}</output>;
}

function show(entry: string) {
  return render(
    <MemoryRouter initialEntries={[entry]}>
      <Routes>
        {['/account', ...SECTIONS.map((s) => s.path)].map((path) => (
          <Route
            key={path}
            path={path}
            element={<Dashboard title="Account" menuLabel="Account sections" base="/account" sections={SECTIONS} />}
          />
        ))}
      </Routes>
      <Where />
    </MemoryRouter>,
  );
}

const menu = () => screen.getByRole('navigation', { name: 'Account sections' });
const address = () => screen.getByRole('status', { name: 'address' }).textContent;

describe('matchDashboard', () => {
  it('maps the own path (with or without a slash), each route, anchors and hash routes', () => {
    const match = (pathname: string, hash = '', search = '') => matchDashboard(SECTIONS, '/account', pathname, hash, search);
    expect(match('/account')).toEqual({ kind: 'section', section: SECTIONS[0] });
    expect(match('/account/')).toEqual({ kind: 'section', section: SECTIONS[0] });
    expect(match('/account/selling')).toEqual({ kind: 'section', section: SECTIONS[1] });
    expect(match('/account/selling/')).toEqual({ kind: 'section', section: SECTIONS[1] });
    expect(match('/account', '#selling', '?verified=1')).toEqual({ kind: 'redirect', to: '/account/selling?verified=1' });
    expect(match('/account', '#email-heading')).toEqual({ kind: 'redirect', to: '/account/profile' });
    expect(match('/account/', '#/terminals/0b7a3c1e-5f2d-4c8e-9a61-3d2f4e5a6b7c/inbox')).toEqual({ kind: 'section', section: SECTIONS[2] });
    // Entry hashes (#impersonate/{code}) and unknown anchors are not sections: the first one shows, the hash stays for its owner.
    expect(match('/account', '#impersonate/abc')).toEqual({ kind: 'section', section: SECTIONS[0] });
    // An anchor on a section's own route is that section's business.
    expect(match('/account/terminals', '#selling')).toEqual({ kind: 'section', section: SECTIONS[2] });
  });
});

describe('Dashboard', () => {
  it('shows one section per route, the menu marks it, the title names it', () => {
    show('/account/selling');
    expect(screen.getByRole('heading', { level: 1, name: 'Account' })).toBeTruthy();
    const links = within(menu()).getAllByRole('link');
    expect(links.map((l) => [l.textContent, l.getAttribute('href'), l.getAttribute('aria-current')])).toEqual([
      ['Profile', '/account/profile', null],
      ['Selling', '/account/selling', 'page'],
      ['Terminals', '/account/terminals', null],
    ]);
    expect(screen.getByRole('heading', { level: 2, name: 'Selling heading' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Profile heading' })).toBeNull();
    expect(document.title).toBe('Selling · Account · Tinkerdesk');
  });

  it('shows the first section on its own path, marked current', () => {
    show('/account');
    expect(screen.getByRole('heading', { level: 2, name: 'Profile heading' })).toBeTruthy();
    expect(within(menu()).getByRole('link', { name: 'Profile' }).getAttribute('aria-current')).toBe('page');
    expect(document.title).toBe('Profile · Account · Tinkerdesk');
  });

  it('redirects an old anchor to its route, keeping the query', () => {
    show('/account?verified=1#selling');
    expect(address()).toBe('/account/selling?verified=1');
    expect(screen.getByRole('heading', { level: 2, name: 'Selling heading' })).toBeTruthy();
  });

  it('shows a hash route in place', () => {
    show('/account/#/terminals/0b7a3c1e-5f2d-4c8e-9a61-3d2f4e5a6b7c/share/success');
    expect(address()).toBe('/account/#/terminals/0b7a3c1e-5f2d-4c8e-9a61-3d2f4e5a6b7c/share/success');
    expect(screen.getByRole('heading', { level: 2, name: 'Terminals heading' })).toBeTruthy();
    expect(within(menu()).getByRole('link', { name: 'Terminals' }).getAttribute('aria-current')).toBe('page');
  });

  it('moves by the menu, and names the new section heading as the focus target', async () => {
    show('/account/profile');
    await userEvent.click(within(menu()).getByRole('link', { name: 'Terminals' }));
    expect(address()).toBe('/account/terminals');
    const heading = screen.getByRole('heading', { level: 2, name: 'Terminals heading' });
    expect(heading.hasAttribute(ROUTE_FOCUS_ATTRIBUTE)).toBe(true);
    expect(heading.getAttribute('tabindex')).toBe('-1');
    expect(document.querySelectorAll(`[${ROUTE_FOCUS_ATTRIBUTE}]`)).toHaveLength(1);
    expect(within(menu()).getByRole('link', { name: 'Terminals' }).getAttribute('aria-current')).toBe('page');
  });
});
