import { Page } from '../../../shared/Page';

export function HardwarePage() {
  return (
    <Page title="Hardware integration" lead="Connect a Bluetooth beeper to signal new orders and scans.">
      <p className="notice" role="status">
        Coming soon: pairing and testing the beeper from this page needs a browser with Web Bluetooth (Chrome or Edge).
      </p>
    </Page>
  );
}
