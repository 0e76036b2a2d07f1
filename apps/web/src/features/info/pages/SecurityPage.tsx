import { Coming } from '../../../shared/Coming';
import { Page } from '../../../shared/Page';
import { Mail } from './Mail';

export function SecurityPage() {
  return (
    <Page title="Security" lead="How Tinkerdesk protects you and your data.">
      <ul className="checklist">
        <li>The browser tools keep your files on your device; the file converter uploads them to convert them on our servers.</li>
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
