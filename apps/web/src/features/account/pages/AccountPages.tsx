import { lazy, startTransition, useEffect, useRef, useState, type ComponentType, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { PATHS } from '../../../routes/paths';
import { errorText } from '../../../shared/api';
import { FormError, useSubmission } from '../../../shared/forms';
import { Dashboard, type DashboardSection } from '../../../shared/Dashboard';
import { session, useSession } from '../../../shared/session/session';
import { requestPasswordReset } from '../../auth/api';
import { RequireAuth } from '../../auth/RequireAuth';
import { useLogout } from '../../auth/use-logout';
import { browserTimeZone, loadTimeZones, type TimeZoneData } from '../time-zones';
import { useRequestVerification, useUpdateProfile } from '../hooks';

/**
 * A section's component from its own chunk, loaded when its route is first shown: /account's chunk
 * holds the Profile section only (the first paint of /account waited for every section's code, 69 KB
 * in 29 files). The dashboard shows a reserved card while a section's chunk loads (shared/Dashboard.tsx);
 * a move between sections is a transition, so the section shown stays until the next one is ready.
 */
function lazySection<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return lazy(async () => ({ default: (await load())[name] }));
}

const SellingSection = lazySection(() => import('../../commerce/components/SellingSection'), 'SellingSection');
const BuyerOrders = lazySection(() => import('../../commerce/components/selling/OrderLists'), 'BuyerOrders');
const TerminalsSection = lazySection(() => import('../../terminals/components/TerminalsSection'), 'TerminalsSection');
const MyFilesSection = lazySection(() => import('../../files/components/MyFilesSection'), 'MyFilesSection');
const AppsSection = lazySection(() => import('../../oauth/components/AppsSection'), 'AppsSection');

/** The sections of /account, one route each (docs/web-app.md#dashboards); the first is /account's own. */
const ACCOUNT_SECTIONS: readonly [DashboardSection, ...DashboardSection[]] = [
  {
    path: PATHS.accountProfile,
    label: 'Profile',
    anchors: ['profile', 'profile-heading', 'email', 'email-heading', 'security', 'security-heading'],
    render: () => (
      <div className="account-grid">
        <ProfileSection />
        <EmailSection />
        <SecuritySection />
      </div>
    ),
  },
  { path: PATHS.accountSelling, label: 'Selling', anchors: ['selling', 'selling-heading'], render: () => <SellingSection /> },
  { path: PATHS.accountOrders, label: 'Orders', anchors: ['orders', 'my-orders'], render: () => <OrdersSection /> },
  {
    path: PATHS.accountTerminals,
    label: 'Terminals',
    anchors: ['terminals', 'terminals-heading'],
    // The spec's /account/#/terminals/{id}/inbox and …/share/success stay as they are.
    hashRoute: /^#\/terminals\//,
    render: () => <TerminalsSection />,
  },
  { path: PATHS.accountFiles, label: 'Files', anchors: ['files', 'files-heading'], render: () => <MyFilesSection /> },
  { path: PATHS.accountApps, label: 'Apps', anchors: ['apps', 'apps-heading'], render: () => <AppsSection /> },
];

/**
 * /account (signed-in users): a dashboard of sections, one per route: profile (name, time zone, email
 * verification, password, log out) at /account and /account/profile, selling, my orders, terminals,
 * saved files and apps. Old anchors (/account#selling) redirect to their route.
 */
export function AccountPage() {
  return (
    <RequireAuth>
      <AccountDashboard />
    </RequireAuth>
  );
}

/**
 * The dashboard itself, for a signed-in session: the app's page (in RequireAuth) and the first paint the
 * gateway renders for a signed-in visitor from its own read of the profile (src/app/account-shell.tsx).
 */
export function AccountDashboard() {
  return (
    <Dashboard
      title="Account"
      menuLabel="Account sections"
      base={PATHS.account}
      sections={ACCOUNT_SECTIONS}
      before={<VerificationResult />}
    />
  );
}

/** What the user ordered as a buyer (orders to the user's services are under Selling). */
function OrdersSection() {
  return (
    <section className="card account-card" id="orders" aria-labelledby="orders-heading">
      <h2 id="orders-heading">Orders</h2>
      <p className="muted">
        What you ordered, with its state, messages and receipt. Orders people placed with your services are under{' '}
        <Link to={PATHS.accountSelling}>Selling</Link>.
      </p>
      <BuyerOrders />
    </section>
  );
}

/** The verification link lands on /account?verified=1 (or =invalid): say so once, then drop the parameter. */
function VerificationResult() {
  const [params, setParams] = useSearchParams();
  const verified = params.get('verified');
  useEffect(() => {
    if (!verified) return;
    if (verified === '1') {
      session.notify({ tag: 'verification', type: 'success', content: 'Thank you: your email address is verified.', timeout: 8000 });
      void session.refresh();
    } else {
      session.notify({
        tag: 'verification',
        type: 'error',
        content: 'That verification link is not valid any more (links work once, for 48 hours). Send a new one below.',
      });
    }
    setParams(
      (current) => {
        current.delete('verified');
        return current;
      },
      { replace: true },
    );
  }, [verified, setParams]);
  return null;
}

function ProfileSection() {
  const { profile } = useSession();
  const [data, setData] = useState<(TimeZoneData & { own: string }) | null>(null);
  const [name, setName] = useState(profile?.name ?? '');
  const [chosen, setTz] = useState(profile?.tz ?? 'UTC');
  const saving = useUpdateProfile();
  useEffect(() => {
    let live = true;
    // The browser's zone is read here, when the list has arrived, not while the section renders. The list's
    // ~400 options are rendered as a transition: in slices, so typing in the form is never held up by them.
    void loadTimeZones().then((loaded) => {
      if (live) startTransition(() => setData({ ...loaded, own: browserTimeZone() }));
    });
    return () => {
      live = false;
    };
  }, []);
  // Current names throughout: an old one (stored before a rename, or reported by the browser) shows as its successor.
  const tz = data?.canonical(chosen) ?? chosen;
  const own = data?.canonical(data.own);
  const zones = data?.zones ?? [];
  const options = zones.includes(tz) ? zones : [tz, ...zones];

  function save(event: FormEvent) {
    event.preventDefault();
    saving.mutate({ name: name.trim(), tz });
  }

  return (
    <section className="card account-card" aria-labelledby="profile-heading">
      <h2 id="profile-heading">Profile</h2>
      <form className="form form-flat" onSubmit={save}>
        <label htmlFor="profile-name">Name</label>
        <input id="profile-name" name="name" value={name} maxLength={200} autoComplete="name" onChange={(e) => setName(e.target.value)} />
        <label htmlFor="profile-tz">Time zone</label>
        <select id="profile-tz" name="tz" value={tz} onChange={(e) => setTz(e.target.value)}>
          {options.map((zone) => (
            <option key={zone} value={zone}>
              {zone.replaceAll('_', ' ')}
            </option>
          ))}
        </select>
        {own && tz !== own ? (
          <button type="button" className="link-button align-start" onClick={() => setTz(own)}>
            Use this device's time zone ({own.replaceAll('_', ' ')})
          </button>
        ) : null}
        <FormError message={saving.error ? errorText(saving.error) : ''} />
        <button className="button button-primary align-start" type="submit" disabled={saving.isPending}>
          {saving.isPending ? 'Saving…' : 'Save profile'}
        </button>
      </form>
    </section>
  );
}

function EmailSection() {
  const { profile, verified } = useSession();
  const sending = useRequestVerification();
  if (!profile) return null;

  return (
    <section className="card account-card" aria-labelledby="email-heading">
      <h2 id="email-heading">Email</h2>
      <p className="account-email">
        <strong>{profile.email}</strong>{' '}
        {verified ? <span className="badge badge-success">Verified</span> : <span className="badge badge-warning">Not verified</span>}
      </p>
      {verified ? (
        <p className="muted">Your email address is confirmed.</p>
      ) : (
        <>
          <p className="muted">Please confirm your email address with the link we sent you. No email? Check your spam folder, or:</p>
          <button
            type="button"
            className="button"
            onClick={() => sending.mutate({ guid: profile.guid, email: profile.email })}
            disabled={sending.isPending}
          >
            {sending.isPending ? 'Sending…' : 'Send verification again'}
          </button>
        </>
      )}
      <FormError message={sending.error ? errorText(sending.error) : ''} />
    </section>
  );
}

function SecuritySection() {
  const { profile } = useSession();
  const logout = useLogout();
  const { state, error, run } = useSubmission();
  const sendReset = () => run(async () => void (await requestPasswordReset(profile?.email ?? '')));
  // The button that was focused goes away when the link is sent: focus its answer, not the page's body.
  const sent = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (state === 'done') sent.current?.focus();
  }, [state]);

  return (
    <section className="card account-card" aria-labelledby="security-heading">
      <h2 id="security-heading">Password and sign-in</h2>
      {state === 'done' ? (
        <p className="notice notice-success" role="status" ref={sent} tabIndex={-1}>
          We emailed you a link to choose a new password. Changing it signs out every device.
        </p>
      ) : (
        <>
          <p className="muted">To change your password we email you a link; choosing the new password signs out every device.</p>
          <button type="button" className="button" onClick={() => void sendReset()} disabled={state === 'sending'}>
            {state === 'sending' ? 'Sending…' : 'Email me a password link'}
          </button>
        </>
      )}
      <FormError message={error} />
      <hr />
      <button type="button" className="button" onClick={() => void logout()}>
        Log out
      </button>
    </section>
  );
}
