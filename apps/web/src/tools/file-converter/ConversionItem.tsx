import type { ReactNode } from 'react';
import { ENGINE_LABELS, engineOf, TARGET_FORMATS, type ConversionJobView, type SourceFormat } from '@tinkerdesk/contracts/web';
import { SaveToFilesButton } from '../../shared/ui/SaveToFilesButton';
import { formatSize } from '../../shared/ui/format';
import { ProgressBar } from '../../shared/ui/progress';
import { resultOf } from './queries';
import { targetLabel } from './targets';
import type { Item } from './use-conversions';

/** One file or URL on its way: choose the target, convert, follow the progress, download the result. */
export function ConversionItem({
  item,
  onTarget,
  onStart,
  onDiscard,
  onDownload,
  available,
}: {
  /** The formats the server can convert now (undefined: not known yet, every format is offered). */
  available?: ReadonlyMap<string, SourceFormat> | undefined;
  item: Item;
  onTarget: (to: string) => void;
  onStart: () => void;
  onDiscard: () => void;
  onDownload: (job: ConversionJobView) => void;
}) {
  const name = item.file?.name ?? item.url ?? '';
  const job = item.job;
  // The format as the server offers it now: its engine may be missing on every worker.
  const format = item.format && available ? available.get(item.format.id) : item.format;
  const off = item.format !== undefined && format === undefined;
  return (
    <li className={`conversion conversion-${item.status}`}>
      <div className="conversion-head">
        <strong className="conversion-name">{name}</strong>
        <span className="conversion-meta">
          {item.file ? formatSize(item.file.size) : 'URL'} · {item.format ? item.format.label : 'format found when fetched'}
        </span>
      </div>
      {item.status === 'ready' ? (
        item.file && !item.format ? (
          <Refused onDiscard={onDiscard}>This kind of file cannot be converted here (see the formats below).</Refused>
        ) : off && item.format ? (
          <Refused onDiscard={onDiscard}>
            Converting a {item.format.label} is unavailable on this server right now: {ENGINE_LABELS[engineOf(item.format)]} is not
            installed on its conversion workers.
          </Refused>
        ) : (
          <div className="conversion-actions">
            <label>
              Convert to{' '}
              <select aria-label={`Convert ${name} to`} value={item.to} onChange={(e) => onTarget(e.target.value)}>
                {(format?.to ?? Object.keys(TARGET_FORMATS)).map((t) => (
                  <option key={t} value={t}>
                    {targetLabel(t)}
                  </option>
                ))}
              </select>
            </label>
            <button type="button" className="button button-small" onClick={onStart}>
              Convert
            </button>
            <button type="button" className="button button-small button-ghost" onClick={onDiscard}>
              Remove
            </button>
          </div>
        )
      ) : null}
      {item.status === 'uploading' ? <ProgressBar value={item.upload} label={item.file ? 'Uploading' : 'Sending'} /> : null}
      {item.status === 'converting' ? <ProgressBar value={(job?.progress ?? 0) / 100} label="Converting" /> : null}
      {item.status === 'done' && job?.output ? (
        <div className="conversion-actions">
          <span role="status">
            Converted: {job.output.filename} ({formatSize(job.output.size)})
          </span>
          <button type="button" className="button button-small button-primary" onClick={() => onDownload(job)}>
            Download
          </button>
          <SaveToFilesButton data={() => resultOf(job)} filename={job.output.filename} />
        </div>
      ) : null}
      {item.status === 'failed' ? (
        <p className="field-error" role="alert">
          {item.error ?? 'The conversion failed.'}
        </p>
      ) : null}
    </li>
  );
}

/** Why a file cannot be converted, and a way to take it off the list. */
function Refused({ children, onDiscard }: { children: ReactNode; onDiscard: () => void }) {
  return (
    <div className="conversion-actions conversion-refused">
      <p className="field-error" role="alert">
        {children}
      </p>
      <button type="button" className="button button-small button-ghost" onClick={onDiscard}>
        Remove
      </button>
    </div>
  );
}
