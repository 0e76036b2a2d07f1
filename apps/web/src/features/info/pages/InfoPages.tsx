import { Link } from 'react-router-dom';
import { PATHS, SUPPORT_EMAIL } from '../../../routes/paths';
import type { ReactNode } from 'react';
import { type Capability } from '../../../shared/capabilities';
import { Coming } from '../../../shared/Coming';
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
      <p>The tools run in your browser. Text and files you give them are processed on your device and are not sent to Tinkerdesk.</p>
      <Coming what="serverConversion" as="section">
        <h2>Converting files on the server</h2>
        <p>
          Some conversions need software a browser does not have. When you choose a server conversion, the file is sent to Tinkerdesk and
          converted by a worker. The uploaded file is deleted once it has been converted, and the result is kept for at most 24 hours so you
          can download it.
        </p>
      </Coming>
      <Coming what="savedFiles" as="section">
        <h2>Saved files</h2>
        <p>
          Signed in, “Save to my files” beside a download keeps that file in your account. Your account page lists your saved files to
          download or delete; only you can reach them, and each download link works for a few minutes.
        </p>
      </Coming>
      <h2>Accounts</h2>
      <p>
        You do not need an account for the tools. An account keeps your name and time zone, and you can sign in with a password or with
        Google, GitHub or Facebook where the site offers them.
      </p>
      <Coming what="selling" as="div">
        <p>
          Providers connect a service and sell products from a public page; visitors order, pay (with Stripe or the built-in sandbox), get a
          receipt, and write to the seller about their order.
        </p>
      </Coming>
      <Coming what="requests" as="div">
        <p>Sellers ask people to pay by email; signed-in users answer payment requests and see a timeline of their account in Billing.</p>
      </Coming>
      <Coming what="billing" as="div">
        <p>Recurring plans and saved payment methods in Billing.</p>
      </Coming>
      <Coming what="terminals" as="div">
        <p>Your browsers can be registered as terminals that share links with each other and announce them with push notifications.</p>
      </Coming>
      <Coming what="beeper" as="section">
        <h2>Bluetooth beeper</h2>
        <p>
          A shop or counter can pair a Bluetooth beeper with its browser: it beeps when the barcode scanner reads a code or a share arrives
          at this terminal. See <Link to={PATHS.hardware}>hardware integration</Link>.
        </p>
      </Coming>
      <h2>For developers</h2>
      <p>
        Integrators use the same API the site uses, under <code>/v1</code>. Read the <a href={PATHS.apiDocs}>API docs</a> or download the{' '}
        <a href={PATHS.openApi}>OpenAPI document</a>. Every error has the form{' '}
        <code>{'{ "success": false, "error": "CODE", "detail": "…" }'}</code>.
      </p>
      <p>
        <Coming what="oauthApps">
          An app can act for other people with their consent through OAuth 2 (authorization code with PKCE): register it on your{' '}
          <Link to={`${PATHS.account}#apps`}>Account page</Link> under Apps and access, where people also see and withdraw the apps they
          allowed.
        </Coming>
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
    <Page title="Pricing" lead="The tools are free, with or without an account." wide>
      <div className="plans">
        <section className="plan" aria-labelledby="plan-free">
          <h2 id="plan-free">Free</h2>
          <p className="price">
            $0 <span>no account needed</span>
          </p>
          <ul className="checklist">
            <li>Every tool, without signing up</li>
            <li>Tools run in your browser; your files stay on your device</li>
            <Coming what="serverConversion" as="li">
              Server conversions when you ask for them
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

export function AboutPage() {
  return (
    <Page
      title="About Tinkerdesk"
      lead={
        <>
          A web utility site: small tools that run in your browser, and <Coming what="selling">an account area for selling online</Coming>
        </>
      }
    >
      <h2>The tools</h2>
      <p>
        Tinkerdesk collects the small tools people keep needing: Base64 and data URIs, Markdown, YAML and JSON, passwords and GUIDs,
        barcodes and WiFi codes, PDF and SVG to images, word counts and EPUB books. They run in your browser, so what you give them stays on
        your device.
      </p>
      <h2>The account area</h2>
      <p>An account keeps your name and time zone. With it:</p>
      <ul>
        <Coming what="selling" as="li">
          Providers connect a service with products and sell from a public page; visitors order, pay and get a receipt, and buyers and
          sellers write to each other about an order.
        </Coming>
        <Coming what="requests" as="li">
          Sellers send payment requests by email; payers accept and pay, or decline; every account has a timeline of what happened.
        </Coming>
        <Coming what="billing" as="li">
          Signed-in users manage recurring plans and saved payment methods.
        </Coming>
        <Coming what="terminals" as="li">
          Browsers registered as terminals send links to each other with push notifications.
        </Coming>
        <Coming what="beeper" as="li">
          A Bluetooth beeper beeps for scanned codes and arriving shares at a counter.
        </Coming>
      </ul>
      <h2>For integrators</h2>
      <p>
        Everything the site does goes through the <a href={PATHS.apiDocs}>/v1 API</a>, described by an{' '}
        <a href={PATHS.openApi}>OpenAPI document</a>. You can use it too.
      </p>
      <p>
        <Coming what="oauthApps">Apps you build can act for other Tinkerdesk users with their consent, through OAuth 2.</Coming>
      </p>
    </Page>
  );
}

/** A question, its answer, and the capability it is about when that is not built for everyone yet. */
const FAQ: Array<[string, ReactNode, Capability?]> = [
  [
    'Are my files uploaded?',
    'No. The tools run in your browser; what you give them stays on your device, unless you convert it on the server or save it to your files.',
  ],
  [
    'Can I keep results on Tinkerdesk?',
    'Yes, when signed in: “Save to my files” beside a download keeps the file in your account, within its storage quota; your account page lists them to download or delete. Only you can reach them.',
    'savedFiles',
  ],
  [
    'What happens to a file I convert on the server?',
    'It is converted by a worker and then deleted; the converted result is kept for at most 24 hours so you can download it.',
    'serverConversion',
  ],
  ['Do I need an account?', 'Not for the tools. An account keeps your name and time zone.'],
  ['Is it free?', 'Yes. The tools are free, and Tinkerdesk takes no fee on sales (Stripe charges its own fees to sellers).'],
  [
    'Can I sell through Tinkerdesk?',
    'Providers connect a service with products and sell from a public page; visitors order, pay and get a receipt.',
    'selling',
  ],
  [
    'What is a terminal?',
    'A browser you registered with your account. Terminals share links with each other and show push notifications.',
    'terminals',
  ],
  ['What is the Bluetooth beeper for?', 'A shop or counter can pair one with its browser so that it beeps for new orders.', 'beeper'],
  [
    'Is there an API?',
    'Yes: the /v1 API, the same one the site uses. Its documentation is at /v1/docs and its OpenAPI document at /v1/openapi.json.',
  ],
  ['Which browsers work?', 'Current versions of Chrome, Edge, Firefox and Safari.'],
];

export function FaqPage() {
  return (
    <Page title="Frequently asked questions" lead="Short answers to what people ask most.">
      <dl className="faq">
        {FAQ.map(([q, a, what]) =>
          what ? (
            <Coming key={q} what={what} as="div">
              <dt>{q}</dt>
              <dd>{a}</dd>
            </Coming>
          ) : (
            <div key={q}>
              <dt>{q}</dt>
              <dd>{a}</dd>
            </div>
          ),
        )}
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

export function PrivacyPage() {
  return (
    <Page title="Privacy" lead="What we collect, and what we do not.">
      <h2>Tools</h2>
      <p>
        The tools run in your browser. What you type or drop into them is not sent to us. Tool history and settings are kept in your
        browser&apos;s own storage on your device, and you can clear them at any time.
      </p>
      <Coming what="serverConversion" as="section">
        <h2>Server conversions</h2>
        <p>
          A file you send for server conversion is used only for that conversion and deleted afterwards; the result is kept for at most 24
          hours.
        </p>
      </Coming>
      <Coming what="savedFiles" as="section">
        <h2>Saved files</h2>
        <p>Files you save to your files are stored privately for your account until you delete them.</p>
      </Coming>
      <h2>Accounts</h2>
      <p>
        For an account we store your email address, name and time zone, and your password only in hashed form. We use your email address
        only for messages about your account.
      </p>
      <Coming what="selling" as="div">
        <p>
          We also keep the records of the orders you place or receive (email address, note, shipping address for printed mail, the messages
          about them). A buyer’s email address is shown to the seller only when the buyer agrees to share it. Card details never reach
          Tinkerdesk: Stripe (or the test sandbox) takes them on its own page.
        </p>
      </Coming>
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
        <li>The tools run in your browser, so your files stay on your device.</li>
        <Coming what="serverConversion" as="li">
          Files sent for server conversion are deleted after conversion; results expire after at most 24 hours.
        </Coming>
        <Coming what="serverConversion" as="li">
          Documents converted on the server are opened with no network access and no view of other files: nothing in a document can reach
          another site or read the server&apos;s files.
        </Coming>
        <Coming what="savedFiles" as="li">
          Saved files are private to your account: they upload and download only through signed links that expire within minutes, and an
          upload link works once.
        </Coming>
        <li>Every protected API call is checked on the server against your session token.</li>
        <li>
          The site sends strict security headers, including a Content Security Policy that allows scripts only from Tinkerdesk itself.
        </li>
        <li>Server errors never expose internal details: you get an error code, a short explanation and a reference id.</li>
        <li>Passwords are hashed with argon2id; session and email-link tokens carry 256 random bits and are stored only as hashes.</li>
        <li>
          Failed sign-ins are limited per account and address, and mails per address and recipient; links in emails work once and expire. A
          browser you signed in with before keeps working for you while others try to guess your password.
        </li>
        <Coming what="oauthApps" as="li">
          Apps you allow see only what you agreed to, and withdrawing an app in your account ends all of its access at once.
        </Coming>
      </ul>
      <h2>Reporting a vulnerability</h2>
      <p>
        Please write to <Mail /> with the details and steps to reproduce. Do not test against other people&apos;s accounts or data. We
        credit reporters who want it.
      </p>
    </Page>
  );
}
