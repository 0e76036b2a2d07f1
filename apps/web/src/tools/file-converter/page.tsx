import {
  detectSourceFormat,
  SOURCE_FORMATS,
  sourceFormat,
  TARGET_FORMATS,
  type ConversionJobView,
  type SourceFormat,
} from '@tinkerdesk/contracts/web';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { PATHS, signInPath } from '../../routes/paths';
import { errorText } from '../../shared/api';
import { useSession } from '../../shared/session/session';
import { SaveToFilesButton } from '../../shared/ui/SaveToFilesButton';
import { saveFile } from '../../shared/ui/actions';
import { FileDrop } from '../../shared/ui/files';
import { formatSize } from '../../shared/ui/format';
import { ProgressBar } from '../../shared/ui/progress';
import { ToolAbout } from '../../shared/ui/ToolAbout';
import type { ToolPageProps } from '../types';
import { convertUrl, deleteJob, downloadResult, getJob, listJobs, uploadForConversion } from './api';

type Status = 'ready' | 'uploading' | 'converting' | 'done' | 'failed';

interface Item {
  key: string;
  file?: File;
  url?: string;
  format?: SourceFormat;
  to: string;
  status: Status;
  /** Upload progress (0–1) while uploading; the job's progress after. */
  upload: number;
  job?: ConversionJobView;
  error?: string;
}

const POLL_MS = 700;
const PARALLEL = 3;
const FINISHED = new Set(['completed', 'failed', 'cancelled', 'expired']);

function targetLabel(id: string): string {
  return TARGET_FORMATS[id]?.label ?? id.toUpperCase();
}

function firstTarget(format: SourceFormat | undefined): string {
  return format?.to.includes('pdf') ? 'pdf' : (format?.to[0] ?? '');
}

let counter = 0;

/** The options a job of this format takes, from the page's option fields. */
function optionsFor(format: SourceFormat | undefined, options: Record<string, string>): Record<string, string> {
  const pick = (...keys: string[]) => Object.fromEntries(keys.filter((k) => options[k]?.trim()).map((k) => [k, options[k]!.trim()]));
  if (format?.kind === 'image') return pick('width', 'height', 'quality');
  if (format?.kind === 'pdf') return pick('dpi', 'firstPage', 'lastPage');
  return {};
}

export default function FileConverterPage(_: ToolPageProps) {
  const session = useSession();
  const token = session.token;
  const [items, setItems] = useState<Item[]>([]);
  const [url, setUrl] = useState('');
  const [urlKind, setUrlKind] = useState<'page' | 'file'>('page');
  const [urlTo, setUrlTo] = useState('pdf');
  const [options, setOptions] = useState<Record<string, string>>({
    width: '',
    height: '',
    quality: '',
    dpi: '150',
    firstPage: '',
    lastPage: '',
  });
  const [recent, setRecent] = useState<{ jobs: ConversionJobView[]; total: number } | null>(null);
  const [recentError, setRecentError] = useState('');
  const itemsRef = useRef(items);
  useEffect(() => {
    itemsRef.current = items;
  }, [items]);
  const urlId = useId();

  const patch = (key: string, change: Partial<Item>) => setItems((list) => list.map((i) => (i.key === key ? { ...i, ...change } : i)));

  const refreshRecent = useCallback(() => {
    if (!token) return;
    listJobs(0, 10).then(
      (list) => {
        setRecent({ jobs: list.jobs, total: list.total });
        setRecentError('');
      },
      (error: unknown) => setRecentError(errorText(error)),
    );
  }, [token]);

  useEffect(() => refreshRecent(), [refreshRecent]);

  // Follows every job that is converting until it finishes.
  useEffect(() => {
    if (!token || !items.some((i) => i.status === 'converting')) return;
    const controller = new AbortController();
    const timer = setInterval(() => {
      for (const item of itemsRef.current.filter((i) => i.status === 'converting' && i.job)) {
        getJob(item.job!.id, controller.signal).then(
          (job) => {
            if (!FINISHED.has(job.state)) return patch(item.key, { job });
            patch(item.key, { job, status: job.state === 'completed' ? 'done' : 'failed', ...(job.error ? { error: job.error } : {}) });
            refreshRecent();
          },
          (error: unknown) => {
            if (!(error instanceof DOMException)) patch(item.key, { status: 'failed', error: errorText(error) });
          },
        );
      }
    }, POLL_MS);
    return () => {
      clearInterval(timer);
      controller.abort();
    };
  }, [token, items, refreshRecent]);

  function addFiles(files: File[]) {
    setItems((list) => [
      ...list,
      ...files.map((file): Item => {
        const format = detectSourceFormat(file.name, file.type);
        return { key: `f${++counter}`, file, ...(format ? { format } : {}), to: firstTarget(format), status: 'ready', upload: 0 };
      }),
    ]);
  }

  function addUrl(event: React.FormEvent) {
    event.preventDefault();
    const value = url.trim();
    if (!value) return;
    const format = urlKind === 'page' ? sourceFormat('url') : undefined;
    setItems((list) => [
      ...list,
      { key: `u${++counter}`, url: value, ...(format ? { format } : {}), to: urlTo, status: 'ready', upload: 0 },
    ]);
    setUrl('');
  }

  async function start(item: Item) {
    if (!token) return;
    patch(item.key, { status: 'uploading', upload: 0, error: undefined as unknown as string });
    try {
      const extra = optionsFor(item.format, options);
      const job = item.file
        ? await uploadForConversion(
            item.file,
            { to: item.to, ...(item.format ? { from: item.format.id } : {}), ...extra },
            token,
            (fraction) => patch(item.key, { upload: fraction }),
          )
        : await convertUrl(item.url ?? '', item.to, item.format?.id);
      patch(item.key, { status: 'converting', job, upload: 1 });
      refreshRecent();
    } catch (error) {
      patch(item.key, { status: 'failed', error: errorText(error) });
    }
  }

  async function startAll() {
    const ready = items.filter((i) => i.status === 'ready' && i.format && i.to);
    for (let i = 0; i < ready.length; i += PARALLEL) await Promise.all(ready.slice(i, i + PARALLEL).map((item) => start(item)));
  }

  /** The converted file of a completed job, typed as it was converted. */
  async function resultOf(job: ConversionJobView): Promise<Blob> {
    if (!token) throw new Error('Sign in to keep the result.');
    const blob = await downloadResult(job.id);
    return job.output && blob.type !== job.output.mediaType ? new Blob([blob], { type: job.output.mediaType }) : blob;
  }

  async function download(job: ConversionJobView) {
    if (!token || !job.output) return;
    try {
      saveFile(await downloadResult(job.id), job.output.filename, job.output.mediaType);
    } catch (error) {
      setRecentError(errorText(error));
    }
  }

  async function remove(job: ConversionJobView) {
    if (!token) return;
    try {
      await deleteJob(job.id);
      setItems((list) => list.filter((i) => i.job?.id !== job.id));
      refreshRecent();
    } catch (error) {
      setRecentError(errorText(error));
    }
  }

  const about = (
    <ToolAbout>
      <p>
        Conversions run on Tinkerdesk&apos;s servers: documents, spreadsheets and presentations with LibreOffice, PDF pages with poppler,
        images with libvips and web pages with a headless browser. Uploaded files are deleted once converted; results are kept for 24 hours.
        The same conversions are available to programs through the <a href={PATHS.apiDocs}>API</a> (<code>/v1/convert</code>).
      </p>
      <table className="formats-table">
        <caption>What each format can become</caption>
        <thead>
          <tr>
            <th scope="col">From</th>
            <th scope="col">To</th>
          </tr>
        </thead>
        <tbody>
          {SOURCE_FORMATS.map((f) => (
            <tr key={f.id}>
              <th scope="row">{f.label}</th>
              <td>{f.to.map((t) => t.toUpperCase()).join(', ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ToolAbout>
  );

  if (!session.ready) return <p role="status">Loading…</p>;
  if (!session.loggedIn || !token) {
    return (
      <>
        <div className="notice" role="note">
          <div>
            <strong>Sign in to convert files.</strong> Server conversions are tied to your account, so only you can download your results.{' '}
            <Link to={signInPath(PATHS.tools + 'converters/files/')}>Sign in</Link> or{' '}
            <Link to={PATHS.register}>create a free account</Link>.
          </div>
        </div>
        {about}
      </>
    );
  }

  const anyReady = items.some((i) => i.status === 'ready' && i.format && i.to);
  return (
    <>
      <FileDrop multiple onFiles={addFiles} label="Choose files" fromUrl={false}>
        Drop files here or paste them
      </FileDrop>
      <form className="tool-form url-form" onSubmit={addUrl} aria-label="Convert a URL">
        <div className="field field-wide">
          <label htmlFor={urlId}>Or a URL</label>
          <input
            id={urlId}
            type="url"
            inputMode="url"
            placeholder="https://example.com/report.docx"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${urlId}-kind`}>It is</label>
          <select
            id={`${urlId}-kind`}
            value={urlKind}
            onChange={(e) => {
              const kind = e.target.value as 'page' | 'file';
              setUrlKind(kind);
              setUrlTo(kind === 'page' ? 'pdf' : 'pdf');
            }}
          >
            <option value="page">a web page</option>
            <option value="file">a file (its format is found when fetched)</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${urlId}-to`}>Convert to</label>
          <select id={`${urlId}-to`} value={urlTo} onChange={(e) => setUrlTo(e.target.value)}>
            {(urlKind === 'page' ? ['pdf', 'png'] : Object.keys(TARGET_FORMATS)).map((t) => (
              <option key={t} value={t}>
                {targetLabel(t)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button" disabled={!url.trim()}>
          Add URL
        </button>
      </form>

      <details className="tool-options">
        <summary>Options</summary>
        <div className="tool-form" role="group" aria-label="Options">
          {(
            [
              ['width', 'Image width (px)'],
              ['height', 'Image height (px)'],
              ['quality', 'Image quality (1–100)'],
              ['dpi', 'PDF resolution (DPI)'],
              ['firstPage', 'PDF first page'],
              ['lastPage', 'PDF last page'],
            ] as const
          ).map(([key, label]) => (
            <div className="field" key={key}>
              <label htmlFor={`opt-${key}`}>{label}</label>
              <input
                id={`opt-${key}`}
                type="number"
                min={key === 'dpi' ? 36 : 1}
                max={key === 'quality' ? 100 : key === 'dpi' ? 600 : 10000}
                value={options[key]}
                onChange={(e) => setOptions((o) => ({ ...o, [key]: e.target.value }))}
              />
            </div>
          ))}
        </div>
      </details>

      {items.length === 0 ? (
        <p className="empty-state">Add files or a URL to convert. You can convert several at once.</p>
      ) : (
        <ul className="conversion-list" aria-label="Conversions">
          {items.map((item) => {
            const name = item.file?.name ?? item.url ?? '';
            return (
              <li key={item.key} className={`conversion conversion-${item.status}`}>
                <div className="conversion-head">
                  <strong className="conversion-name">{name}</strong>
                  <span className="conversion-meta">
                    {item.file ? formatSize(item.file.size) : 'URL'} · {item.format ? item.format.label : 'format found when fetched'}
                  </span>
                </div>
                {item.status === 'ready' ? (
                  item.file && !item.format ? (
                    <p className="field-error" role="alert">
                      This kind of file cannot be converted here (see the formats below).
                    </p>
                  ) : (
                    <div className="conversion-actions">
                      <label>
                        Convert to{' '}
                        <select aria-label={`Convert ${name} to`} value={item.to} onChange={(e) => patch(item.key, { to: e.target.value })}>
                          {(item.format?.to ?? Object.keys(TARGET_FORMATS)).map((t) => (
                            <option key={t} value={t}>
                              {targetLabel(t)}
                            </option>
                          ))}
                        </select>
                      </label>
                      <button type="button" className="button button-small" onClick={() => void start(item)}>
                        Convert
                      </button>
                      <button
                        type="button"
                        className="button button-small button-ghost"
                        onClick={() => setItems((l) => l.filter((i) => i.key !== item.key))}
                      >
                        Remove
                      </button>
                    </div>
                  )
                ) : null}
                {item.status === 'uploading' ? <ProgressBar value={item.upload} label={item.file ? 'Uploading' : 'Sending'} /> : null}
                {item.status === 'converting' ? <ProgressBar value={(item.job?.progress ?? 0) / 100} label="Converting" /> : null}
                {item.status === 'done' && item.job?.output ? (
                  <div className="conversion-actions">
                    <span role="status">
                      Converted: {item.job.output.filename} ({formatSize(item.job.output.size)})
                    </span>
                    <button type="button" className="button button-small button-primary" onClick={() => void download(item.job!)}>
                      Download
                    </button>
                    <SaveToFilesButton data={() => resultOf(item.job!)} filename={item.job.output.filename} />
                  </div>
                ) : null}
                {item.status === 'failed' ? (
                  <p className="field-error" role="alert">
                    {item.error ?? 'The conversion failed.'}
                  </p>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      {anyReady ? (
        <p>
          <button type="button" className="button button-primary" onClick={() => void startAll()}>
            Convert all
          </button>
        </p>
      ) : null}

      <section aria-labelledby="recent-jobs" className="recent-jobs">
        <h2 id="recent-jobs">Your recent conversions</h2>
        {recentError ? (
          <p className="field-error" role="alert">
            {recentError}
          </p>
        ) : null}
        {recent === null ? (
          <p role="status">Loading…</p>
        ) : recent.jobs.length === 0 ? (
          <p className="empty-state">No conversions yet. Results are kept for 24 hours.</p>
        ) : (
          <table className="jobs-table">
            <thead>
              <tr>
                <th scope="col">File</th>
                <th scope="col">To</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {recent.jobs.map((job) => (
                <tr key={job.id}>
                  <td className="job-name">{job.source.kind === 'upload' ? job.source.filename : job.source.url}</td>
                  <td>{job.to.toUpperCase()}</td>
                  <td>
                    {job.state}
                    {job.state === 'active' || job.state === 'queued' ? ` (${job.progress}%)` : ''}
                    {job.error ? <span className="job-error">: {job.error}</span> : null}
                  </td>
                  <td className="job-actions">
                    {job.state === 'completed' ? (
                      <>
                        <button type="button" className="button button-small" onClick={() => void download(job)}>
                          Download
                        </button>
                        {job.output ? <SaveToFilesButton data={() => resultOf(job)} filename={job.output.filename} /> : null}
                      </>
                    ) : null}
                    <button type="button" className="button button-small button-ghost" onClick={() => void remove(job)}>
                      {job.state === 'queued' || job.state === 'active' ? 'Cancel' : 'Delete'}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {about}
    </>
  );
}
