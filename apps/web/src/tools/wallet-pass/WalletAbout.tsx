import { ToolAbout } from '../../shared/ui/ToolAbout';

export function WalletAbout() {
  return (
    <ToolAbout>
      <p>
        Design a generic Google Wallet pass (a membership or loyalty card, a ticket, a badge) and see it as the wallet shows it while you
        type: the card title beside your logo, the header, up to {10} rows of text, a barcode of any type Google Wallet shows (QR Code,
        Aztec, PDF417, Data Matrix, Code 128, Code 39, EAN-13, EAN-8, UPC-A, ITF-14, Codabar) and a hero image. The barcode is drawn by the
        barcode creator, so data that does not fit its type (letters in an EAN-13, a wrong check digit) is named at once.
      </p>
      <p>
        Download or copy the pass as JSON in Google's REST format (a GenericClass and a GenericObject) to send with your own issuer account.
        Signed in, Save keeps the pass in your account, and when the site's operator has set up a Google Wallet issuer, "Add to Google
        Wallet" opens Google's page that adds it to a phone (an Apple Wallet pass is offered the same way). The draft is kept in this
        browser, so a reload loses nothing.
      </p>
    </ToolAbout>
  );
}
