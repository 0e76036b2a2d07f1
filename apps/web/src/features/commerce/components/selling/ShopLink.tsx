import { linkBuilder, type ServiceView } from '@tinkerdesk/contracts/web';
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import type { RenderJob } from '../../../../tools/barcode-creator/render-job';
import { useBarcode } from '../../../../tools/barcode-creator/use-barcode';

/** How long "Copied" stays on the button. */
const COPIED_MS = 2500;

/** The QR code of a link, drawn by the barcode creator's engine (bwip-js in its worker), with a quiet zone on white. */
function qrJob(url: string): RenderJob {
  return {
    bcid: 'qrcode',
    text: url,
    scale: 4,
    margin: 4,
    barColor: '#000000',
    backgroundColor: '#FFFFFF',
    includeText: false,
    ecLevel: 'M',
    extra: {},
  };
}

/**
 * A service's shop link as buyers get it: the short /s/{slug} once the seller chose one (else the
 * long link and a hint), a Copy button whose result is announced, and the link's QR code to download.
 */
export function ShopLink({ service, guid, onEdit }: { service: ServiceView; guid: string; onEdit: () => void }) {
  const origin = linkBuilder(window.location.origin);
  const path = service.slug ? linkBuilder().shop(service.slug) : linkBuilder().storefront(guid, service.id);
  const url = service.slug ? origin.shop(service.slug) : origin.storefront(guid, service.id);
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const job = useMemo(() => qrJob(url), [url]);
  const qr = useBarcode(job);
  const file = `shop-${service.slug ?? service.id.slice(0, 8)}-qr.png`;

  function copy() {
    void navigator.clipboard.writeText(url).then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    );
    setTimeout(() => setCopied(null), COPIED_MS);
  }

  return (
    <section className="shop-link" aria-label={`Shop link of ${service.name}`}>
      <div className="shop-link-text">
        <span className="muted">Your shop link</span>
        <span className="shop-link-url">{url}</span>
        {service.slug ? null : (
          <small className="muted">
            A long link.{' '}
            <button type="button" className="link-button" onClick={onEdit}>
              Choose a short one
            </button>{' '}
            (like {window.location.host}/s/your-shop) that people can read and type.
          </small>
        )}
        <span className="shop-link-actions">
          <button type="button" className="button button-small" onClick={copy} aria-label={`Copy the shop link of ${service.name}`}>
            {copied === 'yes' ? 'Copied' : 'Copy'}
          </button>
          <Link className="button button-small button-ghost" to={path}>
            Public page
          </Link>
          {qr.url && !qr.busy ? (
            <a className="button button-small button-ghost" href={qr.url} download={file}>
              Download PNG
            </a>
          ) : null}
          <span className="visually-hidden" role="status" aria-live="polite">
            {copied === 'yes'
              ? 'The shop link is copied.'
              : copied === 'failed'
                ? 'The shop link could not be copied: select it and copy it.'
                : ''}
          </span>
        </span>
      </div>
      <div className="shop-link-qr">
        {qr.url ? (
          <img src={qr.url} alt={`QR code of ${url}`} width={qr.result?.width} height={qr.result?.height} />
        ) : qr.error ? (
          <small className="muted">No QR code: {qr.error}</small>
        ) : (
          <small className="muted" role="status">
            Drawing the QR code…
          </small>
        )}
      </div>
    </section>
  );
}
