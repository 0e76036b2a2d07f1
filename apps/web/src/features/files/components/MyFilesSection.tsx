import type { SavedFileList, SavedFileView } from '@tinkerdesk/contracts/web';
import { useCallback, useEffect, useState } from 'react';
import { errorText } from '../../../shared/api';
import { formatLongDate } from '@tinkerdesk/contracts/web';
import { InlineConfirm } from '../../../shared/InlineConfirm';
import { useSession } from '../../../shared/session/session';
import { formatSize } from '../../../shared/ui/format';
import { ProgressBar } from '../../../shared/ui/progress';
import { deleteFile, fileDownloadUrl, listFiles } from '../api';

const PAGE = 50;

/** Opens a signed download URL: the storage answers the file as an attachment under its name. */
function openDownload(url: string, filename: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}

/** /account#files: the files the user saved ("Save to my files"), with download and delete. */
export function MyFilesSection() {
  const { token, profile } = useSession();
  const [list, setList] = useState<SavedFileList | null>(null);
  const [error, setError] = useState('');
  const [confirming, setConfirming] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const load = useCallback(
    (limit = PAGE): Promise<void> =>
      token
        ? listFiles(0, limit).then(
            ({ success: _ok, ...answer }) => {
              setList(answer);
              setError('');
            },
            (failure: unknown) => setError(errorText(failure)),
          )
        : Promise.resolve(),
    [token],
  );

  useEffect(() => {
    void load();
  }, [load]);

  async function download(file: SavedFileView) {
    if (!token) return;
    setBusy(file.id);
    try {
      openDownload(await fileDownloadUrl(file.id), file.filename);
      setError('');
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(null);
    }
  }

  async function remove(file: SavedFileView) {
    if (!token) return;
    setBusy(file.id);
    try {
      await deleteFile(file.id);
      setConfirming(null);
      await load(Math.max(PAGE, list?.files.length ?? PAGE));
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="card account-card my-files" id="files" aria-labelledby="files-heading">
      <h2 id="files-heading">My files</h2>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      {list === null ? (
        error ? null : (
          <p role="status">Loading…</p>
        )
      ) : (
        <>
          <ProgressBar
            value={list.quotaBytes > 0 ? list.usedBytes / list.quotaBytes : 0}
            label={`${formatSize(list.usedBytes)} of ${formatSize(list.quotaBytes)} used`}
          />
          {list.pendingBytes > 0 ? (
            <p className="empty-state-text">
              {formatSize(list.pendingBytes)} of it is held for uploads not finished yet; it is freed if they are not finished within
              minutes.
            </p>
          ) : null}
          {list.files.length === 0 ? (
            <p className="empty-state-text">
              No saved files yet. Use “Save to my files” on a conversion result or a tool’s output to keep it here.
            </p>
          ) : (
            <ul className="file-list">
              {list.files.map((file) => (
                <li key={file.id} className="file-row">
                  <span className="file-name">
                    <strong>{file.filename}</strong>
                    <small>
                      {formatSize(file.size)} · {formatLongDate(file.created, profile?.tz)}
                    </small>
                  </span>
                  {confirming === file.id ? (
                    <InlineConfirm
                      label={`Delete ${file.filename}?`}
                      question="Delete it?"
                      action="Delete"
                      busy={busy === file.id}
                      onConfirm={() => void remove(file)}
                      onCancel={() => setConfirming(null)}
                    />
                  ) : (
                    <span className="file-actions">
                      <button
                        type="button"
                        className="button button-small"
                        disabled={busy === file.id}
                        aria-label={`Download ${file.filename}`}
                        onClick={() => void download(file)}
                      >
                        Download
                      </button>
                      <button
                        type="button"
                        className="button button-small button-ghost"
                        aria-label={`Delete ${file.filename}`}
                        onClick={() => setConfirming(file.id)}
                      >
                        Delete
                      </button>
                    </span>
                  )}
                </li>
              ))}
            </ul>
          )}
          {list.total > list.files.length ? (
            <button type="button" className="button button-small" onClick={() => void load(list.files.length + PAGE)}>
              Show more ({list.total - list.files.length})
            </button>
          ) : null}
        </>
      )}
    </section>
  );
}
