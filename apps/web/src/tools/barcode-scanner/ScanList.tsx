import { codesToCsv, type FoundCode } from '@tinkerdesk/tools/barcode-read';
import { CodeCard } from '../barcode-decoder/CodeCard';
import { DownloadButton } from '../../shared/ui/actions';
import type { Scan } from './use-scans';

const time = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'medium' });

function asCode(scan: Scan): FoundCode {
  return { ...scan.data, corners: [], ecLevel: '', symbologyIdentifier: '', orientation: 0 };
}

/** The scanned codes, newest first, each with its time and Remove; the list as CSV, or cleared. `scans` is null while loading. */
export function ScanList({
  scans,
  onClear,
  onRemove,
}: {
  scans: readonly Scan[] | null;
  onClear: () => void;
  onRemove: (id: string) => void;
}) {
  const list = scans ?? [];
  return (
    <section className="decoder-results" aria-label="Scanned codes">
      <div className="text-pane-head">
        <h2 className="pane-title">Scanned codes{list.length > 0 ? ` (${list.length})` : ''}</h2>
        <div className="text-pane-actions">
          <DownloadButton
            data={() =>
              codesToCsv(
                list.map((s) => s.data),
                list.map((s) => new Date(s.created).toISOString()),
              )
            }
            filename="scanned-codes.csv"
            type="text/csv;charset=utf-8"
            label="Download CSV"
            disabled={list.length === 0}
          />
          <button type="button" className="button button-small" onClick={onClear} disabled={list.length === 0}>
            Clear list
          </button>
        </div>
      </div>
      {scans !== null && list.length === 0 ? (
        <p className="empty-state-text">No codes scanned yet. Each new code is added here, newest first, and kept in this browser.</p>
      ) : (
        <ol className="code-list">
          {list.map((s) => (
            <CodeCard
              key={s.id}
              code={asCode(s)}
              meta={
                <>
                  <time className="code-meta" dateTime={new Date(s.created).toISOString()}>
                    {time.format(s.created)}
                  </time>
                  <button type="button" className="link-button code-meta" onClick={() => onRemove(s.id)}>
                    Remove
                  </button>
                </>
              }
            />
          ))}
        </ol>
      )}
    </section>
  );
}
