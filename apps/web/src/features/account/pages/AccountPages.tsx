import { Link } from 'react-router-dom';
import { PATHS } from '../../../routes/paths';
import { Page } from '../../../shared/Page';

function SignInRequired({ title }: { title: string }) {
  return (
    <Page title={title}>
      <p className="notice" role="status">
        Sign-in is required to see this page.
      </p>
      <p>
        <Link className="button button-primary" to={PATHS.signIn}>
          Sign In
        </Link>
      </p>
    </Page>
  );
}

export const AccountPage = () => <SignInRequired title="Account" />;
export const BillingPage = () => <SignInRequired title="Billing" />;
