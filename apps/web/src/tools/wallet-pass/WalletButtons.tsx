import { appleShowsBarcode } from '@tinkerdesk/tools/wallet-pass';
import { useEffect, useState } from 'react';
import { errorText } from '../../shared/api';
import { saveFile } from '../../shared/ui/actions';
import { applePass, googleLink, walletStatus } from './api';
import type { PassFields } from './draft';

type GoogleState =
  { state: 'loading' } | { state: 'ready'; saveUrl: string } | { state: 'unconfigured' } | { state: 'failed'; error: string };

type AppleState = { state: 'loading' } | { state: 'ready' } | { state: 'unconfigured' } | { state: 'failed'; error: string };

function WalletIcon() {
  return (
    <svg width="22" height="18" viewBox="0 0 22 18" aria-hidden="true" focusable="false">
      <rect x="1" y="1" width="20" height="16" rx="3" fill="none" stroke="currentColor" strokeWidth="1.6" />
      <path d="M1 6h20" stroke="currentColor" strokeWidth="1.6" />
      <circle cx="16" cy="11.5" r="1.6" fill="currentColor" />
    </svg>
  );
}

/**
 * A wallet the site is not set up for, in one sentence with what still works. Visitors never see the
 * server's configuration names: the API does not answer them; the terminals service logs them at startup
 * for the operator (docs/configuration.md).
 */
function Unavailable({ wallet }: { wallet: 'Google Wallet' | 'Apple Wallet' | 'a wallet' }) {
  return (
    <p className="notice wallet-setup" role="note">
      Adding to {wallet} is not available on this site; you can still save the pass here and download it in Google’s format with “Download
      JSON” below.
    </p>
  );
}

/** "Add to Google Wallet" (the save link of the saved pass) and "Add to Apple Wallet" (its .pkpass), or what the site lacks for them. */
export function WalletButtons({
  token,
  id,
  version,
  dirty,
  fields,
  stem,
}: {
  token: string;
  /** The saved pass, or null before the first save (then only what the site is set up for shows). */
  id: string | null;
  /** Changes when the pass was saved again (the link carries the pass as saved). */
  version: number;
  dirty: boolean;
  fields: PassFields;
  stem: string;
}) {
  // The answer for the pass as saved (id and version); another one shows as loading until its answer comes.
  const asked = `${id}/${version}`;
  const [answered, setAnswered] = useState<{ key: string; google: GoogleState } | null>(null);
  const [status, setStatus] = useState<{ google: GoogleState; apple: AppleState } | null>(null);
  const google: GoogleState =
    id === null ? (status?.google ?? { state: 'loading' }) : answered?.key === asked ? answered.google : { state: 'loading' };
  const apple: AppleState = status?.apple ?? { state: 'loading' };
  const [appleBusy, setAppleBusy] = useState(false);
  const [appleError, setAppleError] = useState('');

  useEffect(() => {
    if (id === null) return;
    let live = true;
    const key = `${id}/${version}`;
    googleLink(id).then(
      (answer) => {
        if (!live) return;
        setAnswered({
          key,
          google: answer.configured && answer.saveUrl ? { state: 'ready', saveUrl: answer.saveUrl } : { state: 'unconfigured' },
        });
      },
      (failure: unknown) => live && setAnswered({ key, google: { state: 'failed', error: errorText(failure) } }),
    );
    return () => {
      live = false;
    };
  }, [token, id, version]);

  useEffect(() => {
    let live = true;
    walletStatus().then(
      (answer) => {
        if (!live) return;
        setStatus({
          // Before a save there is no link yet: "ready" only says that the site can make one.
          google: answer.google.configured ? { state: 'ready', saveUrl: '' } : { state: 'unconfigured' },
          apple: answer.apple.configured ? { state: 'ready' } : { state: 'unconfigured' },
        });
      },
      (failure: unknown) => {
        const error = { state: 'failed', error: errorText(failure) } as const;
        if (live) setStatus({ google: error, apple: error });
      },
    );
    return () => {
      live = false;
    };
  }, []);

  async function addToApple() {
    if (id === null) return;
    setAppleBusy(true);
    setAppleError('');
    try {
      const blob = await applePass(id);
      saveFile(new Blob([blob], { type: 'application/vnd.apple.pkpass' }), `${stem}.pkpass`);
    } catch (failure) {
      setAppleError(errorText(failure));
    } finally {
      setAppleBusy(false);
    }
  }

  return (
    <div className="wallet-links">
      {google.state === 'loading' ? <p role="status">Getting the Google Wallet link…</p> : null}
      {id === null && (google.state === 'ready' || apple.state === 'ready') ? (
        <p className="wallet-hint">Save the pass to add it to a wallet.</p>
      ) : null}
      {google.state === 'failed' && (id !== null || apple.state !== 'failed') ? (
        <p className="notice notice-error" role="alert">
          {google.error}
        </p>
      ) : null}
      {google.state === 'unconfigured' && apple.state === 'unconfigured' ? (
        <Unavailable wallet="a wallet" />
      ) : google.state === 'unconfigured' ? (
        <Unavailable wallet="Google Wallet" />
      ) : null}
      {google.state === 'ready' && id !== null ? (
        <a className="wallet-add" href={google.saveUrl} target="_blank" rel="noopener noreferrer">
          <WalletIcon />
          Add to Google Wallet
        </a>
      ) : null}

      {apple.state === 'ready' && id !== null ? (
        <>
          <button type="button" className="wallet-add" onClick={() => void addToApple()} disabled={appleBusy}>
            <WalletIcon />
            {appleBusy ? 'Making the pass…' : 'Add to Apple Wallet'}
          </button>
          {!appleShowsBarcode(fields.barcode) ? (
            <p className="wallet-hint">
              Apple Wallet shows only QR Code, PDF417, Aztec and Code 128 barcodes: choose one of those for Apple.
            </p>
          ) : null}
        </>
      ) : null}
      {apple.state === 'unconfigured' && google.state !== 'unconfigured' ? <Unavailable wallet="Apple Wallet" /> : null}
      {apple.state === 'failed' || appleError ? (
        <p className="notice notice-error" role="alert">
          {appleError || (apple.state === 'failed' ? apple.error : '')}
        </p>
      ) : null}
      {id !== null && dirty && (google.state === 'ready' || apple.state === 'ready') ? (
        <p className="wallet-hint">The wallets get the pass as last saved: save to include your changes.</p>
      ) : null}
    </div>
  );
}
