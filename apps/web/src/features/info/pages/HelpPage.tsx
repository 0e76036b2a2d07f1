import { Link } from 'react-router-dom';
import { PATHS } from '../../../routes/paths';
import { Coming } from '../../../shared/Coming';
import { Page } from '../../../shared/Page';
import { Mail } from './Mail';

export function HelpPage() {
  return (
    <Page title="Help" lead="How Tinkerdesk works and where to find what you need.">
      <h2>Finding a tool</h2>
      <p>
        Open <Link to={PATHS.tools}>All Tools</Link> in the top bar, or type what you want to do in the search box and press Enter, for
        example “base64”, “qr” or “json”. Search forgives small typos. Tools marked “Coming soon” are listed so you know they are on the
        way; they do not work yet.
      </p>
      <h2>Which tools keep your files on your device</h2>
      <p>
        Most tools run in your browser: text and files you give them are processed on your device and are not sent to Tinkerdesk. A few send
        what you give them to the server, and say so on their page: the file converter (it needs a free account), “Load from URL” (the
        server fetches the address for you), “Save to my files”, and the wallet pass tool when you save or add a pass.
      </p>
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
        The browser tools need no account; the file converter and “Load from URL” need you to be signed in. An account keeps your name and
        time zone, and you can sign in with a password or with Google, GitHub or Facebook where the site offers them.
      </p>
      <Coming what="selling" as="section">
        <h2 id="selling">Selling</h2>
        <p>
          Signed in, open <Link to={PATHS.accountSelling}>Account → Selling</Link> and add a service: the name buyers see you by (your name
          or your shop’s; it is on your shop page, orders, receipts and emails), and how you are paid (the built-in sandbox for test
          payments, or Stripe where the site offers it). Add products with a price and a picture: pick, drop or paste one, and buyers get it
          in the right size. Choose a short shop link such as <code>/s/riso-corner</code> and share it, or show its QR code.
        </p>
        <p>
          Buyers order from your shop page, signed in or not, and pay on the payment page. Someone who ordered without an account gets the
          order in their account, with its messages and receipt, once they sign up with the order’s email address and confirm it.
        </p>
        <p>
          Your overview shows what you earned (gross, refunds and net, this month and in all), the orders waiting for you and your recent
          orders, with new ones marked. Fulfil an order with a delivery note (a download link, tracking number or a thank-you): the buyer
          sees it on their order page and by email. You can refund all of a payment or part of it, several times until nothing is left; the
          receipt shows what was refunded.
        </p>
      </Coming>
      <Coming what="requests" as="div">
        <p>
          Sellers can also ask someone to pay by email, for a product or for an amount and a description of their own. The payer pays and
          comes back to the request, or declines it, with a reason if they like. Signed-in users answer payment requests and see a timeline
          of their account in Billing.
        </p>
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
          An app can act for other people with their consent through OAuth 2 (authorization code with PKCE): register it in{' '}
          <Link to={PATHS.accountApps}>Account → Apps</Link>, where people also see and withdraw the apps they allowed.
        </Coming>
      </p>
      <h2>Still stuck?</h2>
      <p>
        Read the <Link to={PATHS.faq}>FAQ</Link>, <Link to={PATHS.contact}>send us a question</Link> or write to <Mail />.
      </p>
    </Page>
  );
}
