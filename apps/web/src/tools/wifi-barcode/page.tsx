import { OptionsError, wifiPayload, type WifiSecurity } from '@tinkerdesk/tools/barcode';
import { useMemo, useState } from 'react';
import { saveFile } from '../../shared/ui/actions';
import { ToolAbout } from '../../shared/ui/ToolAbout';
import { setting, useUrlSettings } from '../../shared/ui/url-settings';
import { BarcodeResult } from '../barcode-creator/BarcodeResult';
import type { RenderJob } from '../barcode-creator/render-job';
import { useBarcode } from '../barcode-creator/use-barcode';
import type { ToolPageProps } from '../types';

const SECURITY: Array<{ value: WifiSecurity; label: string }> = [
  { value: 'WPA', label: 'WPA / WPA2 / WPA3 (mixed)' },
  { value: 'SAE', label: 'WPA3 only (SAE)' },
  { value: 'WEP', label: 'WEP (old)' },
  { value: 'nopass', label: 'None (open network)' },
];

// Settings, never the network's name or password: a shared link must not carry them.
const SETTINGS = {
  security: setting.choice(
    SECURITY.map((s) => s.value),
    'WPA',
  ),
  hidden: setting.flag(false),
};

export default function WifiBarcodePage(_props: ToolPageProps) {
  const [settings, update] = useUrlSettings(SETTINGS);
  const [ssid, setSsid] = useState('');
  const [password, setPassword] = useState('');
  const [reveal, setReveal] = useState(false);
  const { security, hidden } = settings;

  const payload = useMemo((): { value?: string; error?: string; field?: 'ssid' | 'password' } => {
    if (!ssid) return {};
    try {
      return { value: wifiPayload({ ssid, password, security, hidden }) };
    } catch (error) {
      return error instanceof OptionsError ? { error: error.message, field: error.field } : { error: String(error) };
    }
  }, [ssid, password, security, hidden]);

  const job = useMemo<RenderJob | null>(
    () =>
      payload.value
        ? {
            bcid: 'qrcode',
            text: payload.value,
            scale: 8,
            margin: 4,
            barColor: '#000000',
            backgroundColor: '#ffffff',
            includeText: false,
            ecLevel: 'M',
            extra: {},
          }
        : null,
    [payload.value],
  );
  const { result, error, url, busy } = useBarcode(job);
  const problem = payload.error ?? error;
  /** An error about one field is shown under it (and named by it); any other under the form. */
  const fieldError = (field: 'ssid' | 'password') =>
    payload.error && payload.field === field ? (
      <span id={`wifi-${field}-error`} className="field-error" role="alert">
        {payload.error}
      </span>
    ) : null;
  const invalid = (field: 'ssid' | 'password') =>
    payload.error && payload.field === field ? { 'aria-invalid': true, 'aria-describedby': `wifi-${field}-error` } : {};
  const stem = `wifi-${ssid.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '') || 'network'}`;

  return (
    <>
      <form className="tool-form" aria-label="Network" onSubmit={(e) => e.preventDefault()}>
        <label>
          Network name (SSID)
          <input
            type="text"
            value={ssid}
            maxLength={64}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => setSsid(e.target.value)}
            {...invalid('ssid')}
          />
          {fieldError('ssid')}
        </label>
        <label>
          Security
          <select value={security} onChange={(e) => update({ security: e.target.value as WifiSecurity })}>
            {SECURITY.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        {security === 'nopass' ? null : (
          <div className="field">
            <label htmlFor="wifi-password">Password</label>
            <span className="inline-field">
              <input
                id="wifi-password"
                type={reveal ? 'text' : 'password'}
                value={password}
                maxLength={63}
                autoComplete="off"
                spellCheck={false}
                onChange={(e) => setPassword(e.target.value)}
                {...invalid('password')}
              />
              <button type="button" className="button button-small" onClick={() => setReveal((r) => !r)} aria-pressed={reveal}>
                {reveal ? 'Hide' : 'Show'}
              </button>
            </span>
            {fieldError('password')}
          </div>
        )}
        <label className="checkbox-label">
          <input type="checkbox" checked={hidden} onChange={(e) => update({ hidden: e.target.checked })} />
          Hidden network
        </label>
        {problem && !payload.field ? (
          <p className="field-error" role="alert">
            {problem}
          </p>
        ) : null}
      </form>

      <div className="tool-panes">
        <BarcodeResult
          result={result}
          url={problem ? undefined : url}
          busy={busy}
          alt={`Wi-Fi QR code for the network ${ssid}`}
          onPng={() => result && saveFile(result.png, `${stem}.png`)}
          onSvg={() => result && saveFile(result.svg, `${stem}.svg`, 'image/svg+xml')}
          empty={
            !ssid ? 'Enter the network name to make its code.' : problem ? 'The code appears once the error above is fixed.' : undefined
          }
        />
        <div>
          {url && !problem ? (
            <>
              <div className="wifi-card" aria-label="Printable card">
                <img src={url} alt={`Wi-Fi QR code for ${ssid}`} />
                <dl>
                  <dt>Wi-Fi</dt>
                  <dd>{ssid}</dd>
                  {security === 'nopass' ? null : (
                    <>
                      <dt>Password</dt>
                      <dd>{password}</dd>
                    </>
                  )}
                  <dt>Scan with the phone&apos;s camera to join</dt>
                </dl>
              </div>
              <p>
                <button type="button" className="button button-primary" onClick={() => window.print()}>
                  Print card
                </button>
              </p>
            </>
          ) : null}
        </div>
      </div>

      <ToolAbout>
        <p>
          Makes the QR code phones read to join a Wi-Fi network: point the camera at it and tap to connect, without typing the password. It
          uses the common <code>WIFI:</code> format (Android, iOS): special characters in the name or password (<code>\ ; , : &quot;</code>)
          are escaped, and values that look like hexadecimal are quoted, as the format asks.
        </p>
        <p>
          Choose WPA for WPA, WPA2 and mixed WPA2/WPA3 networks (every phone understands it); WPA3 only (SAE) for networks that accept
          nothing else. The name and password stay on this page: they are not saved and not put in the link. Print the card for guests.
        </p>
      </ToolAbout>
    </>
  );
}
