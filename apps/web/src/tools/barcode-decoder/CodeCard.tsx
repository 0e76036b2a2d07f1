import { formatLabel, linkOf, type FoundCode } from '@tinkerdesk/tools/barcode-read';
import type { ReactNode } from 'react';
import { CopyButton } from '../../shared/ui/actions';

/** One read code: number, format, text, copy and open-link actions, and the details ZXing gives. */
export function CodeCard({ code, number, meta }: { code: FoundCode; number?: number; meta?: ReactNode }) {
  const link = linkOf(code.text);
  const label = formatLabel(code.format);
  return (
    <li className="code-card" aria-label={number ? `Code ${number}: ${label}` : label}>
      <div className="code-card-head">
        {number ? (
          <span className="code-number" aria-hidden="true">
            {number}
          </span>
        ) : null}
        <span className="code-format">{label}</span>
        {meta}
        <span className="code-actions">
          <CopyButton text={code.text} label="Copy text" />
          {link ? (
            <a className="button button-small" href={link} target="_blank" rel="noopener noreferrer nofollow">
              Open link
            </a>
          ) : null}
        </span>
      </div>
      <pre className="code-text">{code.text === '' ? <em>(no text)</em> : code.text}</pre>
      <details className="code-details">
        <summary>Details</summary>
        <dl>
          {code.ecLevel ? (
            <>
              <dt>Error correction</dt>
              <dd>{code.ecLevel}</dd>
            </>
          ) : null}
          {code.symbologyIdentifier ? (
            <>
              <dt>Symbology identifier</dt>
              <dd>
                <code>{code.symbologyIdentifier}</code>
              </dd>
            </>
          ) : null}
          <dt>Orientation</dt>
          <dd>{code.orientation}°</dd>
          {code.bytesHex ? (
            <>
              <dt>Raw bytes</dt>
              <dd>
                <code className="code-bytes">{code.bytesHex}</code>
              </dd>
            </>
          ) : null}
        </dl>
      </details>
    </li>
  );
}
