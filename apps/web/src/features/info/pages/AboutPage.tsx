import { PATHS } from '../../../routes/paths';
import { Coming } from '../../../shared/Coming';
import { Page } from '../../../shared/Page';

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
