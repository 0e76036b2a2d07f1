import { Link } from 'react-router-dom';
import { PATHS } from '../../../routes/paths';
import { Coming } from '../../../shared/Coming';
import { Page } from '../../../shared/Page';

export function HardwarePage() {
  return (
    <Page
      title="Hardware integration"
      lead={<Coming what="beeper">Connect a Bluetooth beeper so a counter or shop hears new orders and scans.</Coming>}
    >
      <Coming what="beeper" as="div">
        <p className="notice" role="status">
          Pairing and testing the beeper from this page is not built yet. It will need a browser with Web Bluetooth, such as Chrome or Edge
          on desktop or Android.
        </p>
        <h2>How it will work</h2>
        <ol>
          <li>Switch the beeper on and keep it near your computer or phone.</li>
          <li>Choose the beeper in your browser&apos;s Bluetooth dialog; the page connects to it directly, without a server in between.</li>
          <li>Send a test beep, then keep the page open to hear new orders.</li>
        </ol>
      </Coming>
      <p>
        Questions about supported devices? <Link to={PATHS.contact}>Contact us</Link>.
      </p>
    </Page>
  );
}
