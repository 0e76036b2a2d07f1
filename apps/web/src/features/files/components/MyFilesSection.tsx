import { formatLongDate, type SavedFileView } from '@tinkerdesk/contracts/web';
import { useState } from 'react';
import { errorText } from '../../../shared/api';
import { afterRemoval, useDisclosure } from '../../../shared/disclosure';
import { InlineConfirm } from '../../../shared/InlineConfirm';
import { useSession } from '../../../shared/session/session';
import { formatSize } from '../../../shared/ui/format';
import { ProgressBar } from '../../../shared/ui/progress';
import { useDeleteFile, useDownloadFile, useMyFiles } from '../hooks';

const PAGE = 50;

/** /account/files: the files the user saved ("Save to my files"), with download and delete. */
export function MyFilesSection() {
  const { profile } = useSession();
  const [limit, setLimit] = useState(PAGE);
  const files = useMyFiles(limit);
  const list = files.data ?? null;
  const download = useDownloadFile();
  const removal = useDeleteFile();
  // The file whose Delete asks first (the focus returns to its Delete button on Keep).
  const confirming = useDisclosure<string>();
  // The last failure: an action's, else the list's.
  const failure = download.error ?? removal.error ?? files.error;
  const error = failure ? errorText(failure) : '';
  const busy = download.isPending ? download.variables.id : removal.isPending ? removal.variables.id : null;

  function remove(file: SavedFileView) {
    download.reset();
    const ids = (list?.files ?? []).map((f) => confirming.openerId(f.id));
    const index = (list?.files ?? []).findIndex((f) => f.id === file.id);
    // Gone: the focus goes to the next file's Delete (else the one before, else the heading).
    removal.mutate(file, { onSuccess: () => confirming.close(afterRemoval(ids, index, 'files-heading')) });
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
                  {confirming.shown === file.id ? (
                    <InlineConfirm
                      label={`Delete ${file.filename}?`}
                      question="Delete it?"
                      action="Delete"
                      busy={busy === file.id}
                      onConfirm={() => remove(file)}
                      onCancel={() => confirming.close()}
                    />
                  ) : (
                    <span className="file-actions">
                      <button
                        type="button"
                        className="button button-small"
                        disabled={busy === file.id}
                        aria-label={`Download ${file.filename}`}
                        onClick={() => {
                          removal.reset();
                          download.mutate(file);
                        }}
                      >
                        Download
                      </button>
                      <button
                        type="button"
                        className="button button-small button-ghost"
                        {...confirming.opener(file.id)}
                        aria-label={`Delete ${file.filename}`}
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
            <button type="button" className="button button-small" onClick={() => setLimit(list.files.length + PAGE)}>
              Show more ({list.total - list.files.length})
            </button>
          ) : null}
        </>
      )}
    </section>
  );
}
