import { Coming } from '../../../shared/Coming';
import { Page } from '../../../shared/Page';
import { Mail } from './Mail';

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
