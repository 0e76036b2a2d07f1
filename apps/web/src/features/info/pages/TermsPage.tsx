import { Coming } from '../../../shared/Coming';
import { Page } from '../../../shared/Page';
import { Mail } from './Mail';

export function TermsPage() {
  return (
    <Page title="Terms of service" lead="The rules for using Tinkerdesk, in plain words.">
      <h2>Using the site</h2>
      <p>
        You may use the tools for any lawful purpose. Do not use Tinkerdesk to attack others, to break the law, or to overload the service,
        and do not give it files you have no right to process.
      </p>
      <h2>Accounts</h2>
      <p>Keep your password safe; you are responsible for what happens with your account. We may close accounts that break these terms.</p>
      <Coming what="selling" as="section">
        <h2>Providers and payments</h2>
        <p>
          Providers are responsible for the products they sell, their descriptions and their fulfilment. Payments are processed by the
          provider’s payment processor (Stripe, on the provider’s own connected account); amounts are in US dollars. Orders on a shop in
          test mode (the sandbox) move no real money.
        </p>
      </Coming>
      <h2>API</h2>
      <p>The /v1 API is subject to rate limits. Keep your tokens secret.</p>
      <h2>No warranty</h2>
      <p>The tools are provided as they are. Check important results yourself.</p>
      <h2>Changes</h2>
      <p>We announce changes to these terms on this page before they take effect.</p>
      <h2>Contact</h2>
      <p>
        Questions about these terms: <Mail />.
      </p>
    </Page>
  );
}
