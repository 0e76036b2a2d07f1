import { Link } from 'react-router-dom';
import { PATHS } from '../../../routes/paths';
import { Coming } from '../../../shared/Coming';
import { Page } from '../../../shared/Page';

export function PricingPage() {
  return (
    <Page title="Pricing" lead="The tools are free. Most need no account; the file converter needs a free one." wide>
      <div className="plans">
        <section className="plan" aria-labelledby="plan-free">
          <h2 id="plan-free">Free</h2>
          <p className="price">
            $0 <span>most tools need no account</span>
          </p>
          <ul className="checklist">
            <li>Every browser tool, without signing up</li>
            <li>Browser tools keep your files on your device</li>
            <Coming what="serverConversion" as="li">
              With a free account: the file converter, which uploads your files and converts them on our servers
            </Coming>
            <Coming what="terminals" as="li">
              With a free account: terminals that share links between your browsers
            </Coming>
          </ul>
          <Link className="button button-primary" to={PATHS.tools}>
            Use the tools
          </Link>
        </section>
        <Coming what="selling" as="section" className="plan plan-highlight">
          <h2 id="plan-provider">Selling</h2>
          <p className="price">
            $0 <span>Tinkerdesk takes no fee</span>
          </p>
          <p className="plan-note">
            Stripe charges its own fees on your connected account; the built-in sandbox takes test payments for free.
          </p>
          <ul className="checklist">
            <li>A public page with your products</li>
            <li>Orders and payments through Stripe or the sandbox</li>
            <li>Receipts by email and a printable receipt page</li>
            <li>Messages with buyers, fulfilment and refunds</li>
            <Coming what="requests" as="li">
              Payment requests by email, and a timeline of your account
            </Coming>
            <Coming what="billing" as="li">
              Recurring plans and saved payment methods
            </Coming>
          </ul>
        </Coming>
      </div>
      <p className="muted">
        Tinkerdesk charges nothing today. Questions? <Link to={PATHS.contact}>Contact us</Link>.
      </p>
    </Page>
  );
}
