import { Link } from 'react-router-dom';
import { PATHS } from '../../../routes/paths';
import { Page } from '../../../shared/Page';
import { meta as scanner } from '../../../tools/barcode-scanner/meta';
import { BeeperPanel } from '../components/BeeperPanel';

export function HardwarePage() {
  return (
    <Page title="Hardware integration" lead="Connect a Bluetooth beeper to this browser so a counter or shop hears each scanned code.">
      <BeeperPanel />
      <h2>How it works</h2>
      <ol>
        <li>Switch the beeper on and keep it near your computer or phone.</li>
        <li>
          Press Connect and choose the beeper in your browser&apos;s Bluetooth dialog; the page talks to it directly, without a server in
          between.
        </li>
        <li>Press Beep to test it and Stop to silence it.</li>
        <li>
          Turn on &ldquo;Beep when the barcode scanner reads a code&rdquo; and open the <Link to={scanner.path}>barcode scanner</Link>: the
          beeper stays connected while you move between the site&apos;s pages in this tab. Reloading or closing the tab ends the connection;
          connect again afterwards.
        </li>
      </ol>
      <h2>Supported beepers</h2>
      <p>
        Beepers and key finders that offer the Bluetooth Immediate Alert service (0x1802, with its Alert Level characteristic 0x2A06) or the
        0xFFE0 service (characteristic 0xFFE1), as many &ldquo;iTag&rdquo; tags do. The page writes 2 to start the beep and 0 to stop it. It
        needs a browser with Web Bluetooth: Chrome or Edge on a desktop computer or on Android.
      </p>
      <p>
        Questions about supported devices? <Link to={PATHS.contact}>Contact us</Link>.
      </p>
    </Page>
  );
}
