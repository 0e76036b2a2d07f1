import { CopyImageButton } from '../../shared/ui/actions';
import type { RenderResult } from './render-job';

/** The drawn barcode (the Output region): preview, its size, PNG and SVG downloads, copy as image. */
export function BarcodeResult({
  result,
  url,
  busy,
  alt,
  onPng,
  onSvg,
  empty,
}: {
  result?: RenderResult;
  url?: string;
  busy: boolean;
  alt: string;
  onPng: () => void;
  onSvg: () => void;
  empty?: string;
}) {
  return (
    <section className="barcode-output" aria-label="Output" aria-busy={busy}>
      <div className="text-pane-head">
        <h2 className="pane-title">Output</h2>
        <div className="text-pane-actions">
          <CopyImageButton png={url && !busy ? result?.png : undefined} />
          <button type="button" className="button button-small" onClick={onPng} disabled={!url || busy}>
            Download PNG
          </button>
          <button type="button" className="button button-small" onClick={onSvg} disabled={!url || busy}>
            Download SVG
          </button>
        </div>
      </div>
      <div className="barcode-stage">
        {url ? (
          <img src={url} alt={alt} />
        ) : (
          <p className="empty-state-text">{empty ?? (busy ? 'Drawing…' : 'The barcode appears here.')}</p>
        )}
      </div>
      {url && result ? (
        <p className="text-pane-info">
          {result.width} × {result.height} px PNG
        </p>
      ) : null}
    </section>
  );
}
