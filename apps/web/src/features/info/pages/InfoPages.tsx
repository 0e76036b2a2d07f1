import { Link } from 'react-router-dom';
import { PATHS, SUPPORT_EMAIL } from '../../../routes/paths';
import { Page } from '../../../shared/Page';

const Mail = () => <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>;

export function HelpPage() {
  return (
    <Page title="Help" lead="How Tinkerdesk works and where to find what you need.">
      <h2>Finding a tool</h2>
      <p>
        Open <Link to={PATHS.tools}>All Tools</Link> in the top bar, or type what you want to do in the search box and press Enter, for
        example “base64”, “qr” or “json”. Search forgives small typos. Tools marked “Coming soon” are listed so you know they are on the
        way; they do not work yet.
      </p>
      <h2>Your files stay on your device</h2>
      <p>
        The tools run in your browser. Text and files you give them are processed on your device and are not sent to Tinkerdesk. Nothing is
        uploaded unless you choose a server conversion.
      </p>
      <h2>Converting files on the server</h2>
      <p>
        Some conversions need software a browser does not have. When you choose a server conversion, the file is sent to Tinkerdesk and
        converted by a worker. The uploaded file is deleted once it has been converted, and the result is kept for at most 24 hours so you
        can download it.
      </p>
      <h2>Accounts</h2>
      <p>
        You do not need an account for the tools. An account lets providers connect a service and sell products from a public page, lets you
        answer payment requests, manage plans and payment methods, and register your browsers as terminals that share links with each other
        and announce them with push notifications.
      </p>
      <h2>Bluetooth beeper</h2>
      <p>
        A shop or counter can pair a Bluetooth beeper with its browser to hear new orders. See{' '}
        <Link to={PATHS.hardware}>hardware integration</Link>.
      </p>
      <h2>For developers</h2>
      <p>
        Integrators use the same API the site uses, under <code>/v1</code>. Read the <a href={PATHS.apiDocs}>API docs</a> or download the{' '}
        <a href={PATHS.openApi}>OpenAPI document</a>. Every error has the form{' '}
        <code>{'{ "success": false, "error": "CODE", "detail": "…" }'}</code>.
      </p>
      <h2>Still stuck?</h2>
      <p>
        Read the <Link to={PATHS.faq}>FAQ</Link>, <Link to={PATHS.contact}>send us a question</Link> or write to <Mail />.
      </p>
    </Page>
  );
}

export function PricingPage() {
  return (
    <Page title="Pricing" lead="The tools are free. Paid plans are for providers who sell through Tinkerdesk." wide>
      <div className="plans">
        <section className="plan" aria-labelledby="plan-free">
          <h2 id="plan-free">Free</h2>
          <p className="price">
            $0 <span>no account needed</span>
          </p>
          <ul className="checklist">
            <li>Every tool, without signing up</li>
            <li>Tools run in your browser; your files stay on your device</li>
            <li>Server conversions when you ask for them</li>
            <li>With a free account: terminals that share links between your browsers</li>
          </ul>
          <Link className="button button-primary" to={PATHS.tools}>
            Use the tools
          </Link>
        </section>
        <section className="plan plan-highlight" aria-labelledby="plan-provider">
          <h2 id="plan-provider">Provider plans</h2>
          <p className="price">
            Paid <span>managed in your account</span>
          </p>
          <ul className="checklist">
            <li>A public page with your products</li>
            <li>Orders, payments and receipts</li>
            <li>Payment requests and replies to orders</li>
            <li>Plans and payment methods in Billing</li>
          </ul>
          <Link className="button" to={PATHS.register}>
            Create an account
          </Link>
        </section>
      </div>
      <p className="muted">
        Paid plans are chosen, changed and cancelled in the account area (Billing), where each plan&apos;s price is shown before you
        subscribe. Amounts are in US dollars. Questions about plans? <Link to={PATHS.contact}>Contact us</Link>.
      </p>
    </Page>
  );
}

export function AboutPage() {
  return (
    <Page title="About Tinkerdesk" lead="A web utility site: small tools that run in your browser, and an account area for selling online.">
      <h2>The tools</h2>
      <p>
        Tinkerdesk collects the small tools people keep needing: Base64 and data URIs, Markdown, YAML and JSON, passwords and GUIDs,
        barcodes and WiFi codes, PDF and SVG to images, word counts and EPUB books. They run in your browser, so what you give them stays on
        your device; only a server conversion you ask for sends a file to us.
      </p>
      <h2>The account area</h2>
      <p>
        Providers connect a service with products and sell from a public page; visitors order, pay and get a receipt. Signed-in users answer
        payment requests, reply to orders, manage plans and payment methods, and register their browsers as terminals that send links to
        each other with push notifications. A Bluetooth beeper can signal new orders at a counter.
      </p>
      <h2>For integrators</h2>
      <p>
        Everything the site does goes through the <a href={PATHS.apiDocs}>/v1 API</a>, described by an{' '}
        <a href={PATHS.openApi}>OpenAPI document</a>. You can use it too.
      </p>
    </Page>
  );
}

const FAQ: Array<[string, string]> = [
  [
    'Are my files uploaded?',
    'No. The tools run in your browser. Only a server conversion, which you choose explicitly, sends a file to us.',
  ],
  [
    'What happens to a file I convert on the server?',
    'It is converted by a worker and then deleted; the converted result is kept for at most 24 hours so you can download it.',
  ],
  [
    'Do I need an account?',
    'Not for the tools. An account is needed to sell, answer payment requests, manage plans and register terminals.',
  ],
  [
    'Is it free?',
    'The tools are free. Providers pay for plans that let them sell through Tinkerdesk; plans are managed in the account area.',
  ],
  ['What is a terminal?', 'A browser you registered with your account. Terminals share links with each other and show push notifications.'],
  ['What is the Bluetooth beeper for?', 'A shop or counter can pair one with its browser so that it beeps for new orders.'],
  [
    'Is there an API?',
    'Yes: the /v1 API, the same one the site uses. Its documentation is at /v1/docs and its OpenAPI document at /v1/openapi.json.',
  ],
  [
    'Which browsers work?',
    'Current versions of Chrome, Edge, Firefox and Safari. The Bluetooth beeper needs a browser with Web Bluetooth.',
  ],
];

export function FaqPage() {
  return (
    <Page title="Frequently asked questions" lead="Short answers to what people ask most.">
      <dl className="faq">
        {FAQ.map(([q, a]) => (
          <div key={q}>
            <dt>{q}</dt>
            <dd>{a}</dd>
          </div>
        ))}
      </dl>
      <p>
        Not answered here? <Link to={PATHS.contact}>Ask us</Link>.
      </p>
    </Page>
  );
}

export function TermsPage() {
  return (
    <Page title="Terms of service" lead="The rules for using Tinkerdesk, in plain words.">
      <h2>Using the site</h2>
      <p>
        You may use the tools for any lawful purpose. Do not use Tinkerdesk to attack others, to break the law, or to overload the service,
        and do not send for server conversion files you have no right to process.
      </p>
      <h2>Accounts</h2>
      <p>Keep your password safe; you are responsible for what happens with your account. We may close accounts that break these terms.</p>
      <h2>Providers and payments</h2>
      <p>
        Providers are responsible for the products they sell, their descriptions and their fulfilment. Payments are processed by our payment
        provider; amounts are in US dollars.
      </p>
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

export function PrivacyPage() {
  return (
    <Page title="Privacy" lead="What we collect, and what we do not.">
      <h2>Tools</h2>
      <p>
        The tools run in your browser. What you type or drop into them is not sent to us. Tool history and settings are kept in your
        browser&apos;s own storage on your device, and you can clear them at any time.
      </p>
      <h2>Server conversions</h2>
      <p>
        A file you send for server conversion is used only for that conversion and deleted afterwards; the result is kept for at most 24
        hours.
      </p>
      <h2>Accounts</h2>
      <p>
        For an account we store your email address, name and time zone, your password only in hashed form, and the records of the orders,
        requests, plans and terminals you create. We use your email address only for messages about your account and your orders.
      </p>
      <h2>Messages to us</h2>
      <p>What you send with the contact form (name, email address, question) is used only to answer you.</p>
      <h2>Cookies</h2>
      <p>
        Signed-in sessions use two cookies, <code>token</code> and <code>loggedIn</code>. We use no advertising cookies.
      </p>
      <h2>Contact</h2>
      <p>
        Questions about your data: <Mail />.
      </p>
    </Page>
  );
}

export function SecurityPage() {
  return (
    <Page title="Security" lead="How Tinkerdesk protects you and your data.">
      <ul className="checklist">
        <li>The tools run in your browser, so your files stay on your device unless you ask for a server conversion.</li>
        <li>Files sent for server conversion are deleted after conversion; results expire after at most 24 hours.</li>
        <li>Every protected API call is checked on the server against your session token.</li>
        <li>
          The site sends strict security headers, including a Content Security Policy that allows scripts only from Tinkerdesk itself.
        </li>
        <li>Server errors never expose internal details: you get an error code, a short explanation and a reference id.</li>
        <li>Passwords are hashed with argon2id; session and email-link tokens carry 256 random bits and are stored only as hashes.</li>
        <li>Repeated failed sign-ins are slowed down per account and per address; links in emails work once and expire.</li>
      </ul>
      <h2>Reporting a vulnerability</h2>
      <p>
        Please write to <Mail /> with the details and steps to reproduce. Do not test against other people&apos;s accounts or data. We
        credit reporters who want it.
      </p>
    </Page>
  );
}
