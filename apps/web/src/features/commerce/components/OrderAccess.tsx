import { Link } from 'react-router-dom';
import { signInPath, signUpPath } from '../../../routes/paths';
import { useSession } from '../../../shared/session/session';
import { ResendVerification } from './ResendVerification';

/**
 * In place of the messages, for a viewer the order does not count as its buyer (yet): how to become it.
 * An order placed with an address belongs to the account that confirms that address, so the way is to
 * sign in or sign up with it and open the confirmation link (which leads back here).
 */
export function OrderMessagesGate({ orderPath, email }: { orderPath: string; email: string | null }) {
  const { loggedIn, profile, verified } = useSession();
  const address = email ? <strong className="break-anywhere">{email}</strong> : 'the email address of this order';
  const sameAddress = !!email && !!profile && profile.email.toLowerCase() === email.toLowerCase();

  let body;
  if (loggedIn && profile && sameAddress && !verified) {
    body = (
      <>
        <p>
          You are signed in with {address}, but it is not confirmed yet. Open the link we emailed to it: the messages show here afterwards,
          and this order is in your orders.
        </p>
        <ResendVerification guid={profile.guid} email={profile.email} returnTo={orderPath} />
      </>
    );
  } else if (loggedIn && profile) {
    body = (
      <p>
        You are signed in as <strong className="break-anywhere">{profile.email}</strong>, but this order was placed with {address}.{' '}
        <Link to={signInPath(orderPath)}>Sign in</Link> with that address to read the messages and write to the seller.
      </p>
    );
  } else {
    body = (
      <p>
        To read them and write to the seller, <Link to={signInPath(orderPath)}>sign in</Link> with {address}, or{' '}
        <Link to={signUpPath(orderPath)}>create an account</Link> with it and open the confirmation link we email you. The order is then in
        your orders too.
      </p>
    );
  }
  return (
    <section className="card replies" aria-labelledby="replies-heading">
      <h2 id="replies-heading">Messages</h2>
      {/* One block: its paragraphs' margins collapse (the card is a grid, where they would add up). */}
      <div>
        <p>Messages between the buyer and the seller are for them only.</p>
        {body}
      </div>
    </section>
  );
}
