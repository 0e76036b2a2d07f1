import { Link } from 'react-router-dom';
import { PATHS, SUPPORT_EMAIL } from '../../../routes/paths';
import { Page } from '../../../shared/Page';

export function HelpPage() {
  return (
    <Page title="Help" lead="How Tinkerdesk works and where to find what you need.">
      <h2>Using the tools</h2>
      <p>
        Pick a tool from <Link to={PATHS.tools}>All Tools</Link> or search for what you want to do. The tools run in your browser: text and
        files you give them stay on your device. Each tool page explains its options and shows examples.
      </p>
      <h2>Converting files on the server</h2>
      <p>
        Some conversions need software a browser does not have. When you choose a server conversion, the file is sent to Tinkerdesk,
        converted by a worker, and kept only until you download it (at most 24 hours).
      </p>
      <h2>Accounts</h2>
      <p>
        An account lets providers connect a service and sell products from a public page, lets you answer payment requests, manage plans and
        payment methods, and register your browsers as terminals that share links with push notifications.
      </p>
      <h2>For developers</h2>
      <p>
        Everything is available through the <a href={PATHS.apiDocs}>/v1 API</a> (OpenAPI document at{' '}
        <a href={PATHS.openApi}>/v1/openapi.json</a>). Errors always have the form <code>{'{ "success": false, "error", "detail" }'}</code>.
      </p>
      <h2>Still stuck?</h2>
      <p>
        Read the <Link to={PATHS.faq}>FAQ</Link> or <Link to={PATHS.contact}>contact us</Link>.
      </p>
    </Page>
  );
}

export function PricingPage() {
  return (
    <Page title="Pricing" lead="The tools are free. Paid plans are for providers who sell through Tinkerdesk.">
      <div className="plans">
        <section className="plan">
          <h2>Free</h2>
          <p className="price">$0</p>
          <ul>
            <li>Every tool, no sign-up needed</li>
            <li>Tools run in your browser; files stay on your device</li>
            <li>Server conversions with fair-use limits</li>
            <li>Terminals and link sharing with a free account</li>
          </ul>
          <Link className="button button-primary" to={PATHS.tools}>
            Use the tools
          </Link>
        </section>
        <section className="plan">
          <h2>Provider plans</h2>
          <p className="price">From your account</p>
          <ul>
            <li>A public page with your products</li>
            <li>Orders, payments and receipts</li>
            <li>Payment requests and replies</li>
            <li>Plans and payment methods managed in Billing</li>
          </ul>
          <Link className="button" to={PATHS.register}>
            Create an account
          </Link>
        </section>
      </div>
      <p>Prices of paid plans are shown in the account area before you subscribe; amounts are in US dollars.</p>
    </Page>
  );
}

export function AboutPage() {
  return (
    <Page title="About Tinkerdesk" lead="A small team building the most useful small tools on the web.">
      <p>
        Tinkerdesk started as a collection of converters and generators we kept needing: Base64, data URIs, YAML and JSON, barcodes,
        passwords and GUIDs. We built them to be fast, private and accessible, working offline once loaded.
      </p>
      <p>
        Around the tools grew an account area: providers sell products from a public page, visitors order and pay, and people register their
        browsers as terminals that send links to each other — with a Bluetooth beeper for counters and shops.
      </p>
      <p>
        Integrators use the same <a href={PATHS.apiDocs}>/v1 API</a> the site uses.
      </p>
    </Page>
  );
}

const FAQ: Array<[string, string]> = [
  ['Are my files uploaded?', 'No. The tools run in your browser. Only a server conversion, which you choose explicitly, sends a file.'],
  ['Do I need an account?', 'Not for the tools. An account is needed to sell, pay requests, manage plans and register terminals.'],
  ['Is it free?', 'The tools are free. Providers pay for plans that let them sell through Tinkerdesk.'],
  [
    'What is a terminal?',
    'A browser you registered with your account. Terminals can share links with each other and show push notifications.',
  ],
  ['Is there an API?', 'Yes: the /v1 API, documented at /v1/docs, is the same one the site uses.'],
  [
    'Which browsers work?',
    'Current versions of Chrome, Edge, Firefox and Safari. The Bluetooth beeper needs a browser with Web Bluetooth.',
  ],
];

export function FaqPage() {
  return (
    <Page title="Frequently asked questions">
      <dl className="faq">
        {FAQ.map(([q, a]) => (
          <div key={q}>
            <dt>{q}</dt>
            <dd>{a}</dd>
          </div>
        ))}
      </dl>
    </Page>
  );
}

export function TermsPage() {
  return (
    <Page title="Terms of service" lead="The rules for using Tinkerdesk, in plain words.">
      <h2>Using the site</h2>
      <p>
        You may use the tools for any lawful purpose. Do not use Tinkerdesk to attack others, to break the law, or to overload the service.
      </p>
      <h2>Accounts</h2>
      <p>Keep your password safe; you are responsible for what happens with your account. We may close accounts that break these terms.</p>
      <h2>Providers and payments</h2>
      <p>
        Providers are responsible for the products they sell and their descriptions. Payments are processed by our payment provider; amounts
        are in US dollars.
      </p>
      <h2>No warranty</h2>
      <p>The tools are provided as they are. Check important results yourself.</p>
      <h2>Changes</h2>
      <p>We will announce changes to these terms on this page before they take effect.</p>
    </Page>
  );
}

export function PrivacyPage() {
  return (
    <Page title="Privacy" lead="What we collect, and what we do not.">
      <h2>Tools</h2>
      <p>
        The tools run in your browser. What you type or drop into them is not sent to us. Tool history and settings are kept in your
        browser&apos;s local storage and you can clear them at any time.
      </p>
      <h2>Server conversions</h2>
      <p>A file you send for server conversion is kept only until you download the result, and at most 24 hours.</p>
      <h2>Accounts</h2>
      <p>
        For an account we store your email address, name, time zone, a hash of your password (never the password itself) and the records of
        orders, requests, plans and terminals you create. We use your email only for messages about your account.
      </p>
      <h2>Cookies</h2>
      <p>
        Signed-in sessions use two cookies, <code>token</code> and <code>loggedIn</code>. We do not use advertising cookies.
      </p>
      <h2>Contact</h2>
      <p>
        Questions about your data: <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>.
      </p>
    </Page>
  );
}

export function SecurityPage() {
  return (
    <Page title="Security" lead="How we protect you and your data.">
      <ul className="checklist">
        <li>Passwords are hashed with argon2id; session tokens are random and stored only as hashes.</li>
        <li>Every protected call is checked on the server; the site sends strict security headers and a Content Security Policy.</li>
        <li>Tools run in your browser, so your files stay on your device.</li>
        <li>Files sent for server conversion are size-limited and deleted after at most 24 hours.</li>
        <li>Addresses the server fetches for you are checked so they cannot reach private networks.</li>
      </ul>
      <h2>Reporting a vulnerability</h2>
      <p>
        Please write to <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a> with the details. We answer quickly and credit reporters who
        want it.
      </p>
    </Page>
  );
}
