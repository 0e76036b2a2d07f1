import { Link } from 'react-router-dom';
import { PATHS } from '../../../routes/paths';
import { Page } from '../../../shared/Page';

/** Placeholders until the identity and billing work: both need a signed-in user. */
function SignInRequired({ title, what }: { title: string; what: string }) {
  return (
    <Page title={title} lead={what}>
      <p className="notice" role="status">
        Sign-in is required to see this page.
      </p>
      <p className="actions">
        <Link className="button button-primary" to={PATHS.signIn}>
          Sign In
        </Link>
        <Link className="button" to={PATHS.register}>
          Sign Up
        </Link>
      </p>
    </Page>
  );
}

export const AccountPage = () => (
  <SignInRequired title="Account" what="Your profile, services and products, orders, payment requests and terminals." />
);
export const BillingPage = () => <SignInRequired title="Billing" what="Your plans, payment methods and receipts." />;
