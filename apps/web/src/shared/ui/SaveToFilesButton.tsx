import { useState } from 'react';
import { Link } from 'react-router-dom';
import { PATHS } from '../../routes/paths';
import { errorText } from '../api';
import { useSession } from '../session/session';
import { saveToMyFiles } from '../my-files';

type Data = Blob | string | (() => Blob | string | Promise<Blob>);

async function blobOf(data: Data, type: string): Promise<Blob> {
  const value = typeof data === 'function' ? await data() : data;
  return typeof value === 'string' ? new Blob([value], { type }) : value;
}

/**
 * "Save to my files": keeps a result in the signed-in user's files (/account), through a signed
 * upload URL, with the upload's progress. Shown to signed-in users only.
 */
export function SaveToFilesButton({
  data,
  filename,
  type = 'text/plain;charset=utf-8',
  disabled,
  className = 'button button-small',
}: {
  data: Data;
  filename: string;
  type?: string;
  disabled?: boolean;
  className?: string;
}) {
  const { loggedIn, token } = useSession();
  const [state, setState] = useState<
    { kind: 'idle' | 'saved' } | { kind: 'saving'; progress: number } | { kind: 'failed'; message: string }
  >({
    kind: 'idle',
  });
  if (!loggedIn || !token) return null;

  async function save() {
    if (!token) return;
    setState({ kind: 'saving', progress: 0 });
    try {
      const blob = await blobOf(data, type);
      await saveToMyFiles(blob, filename, (progress) => setState({ kind: 'saving', progress }));
      setState({ kind: 'saved' });
    } catch (error) {
      setState({ kind: 'failed', message: errorText(error) });
    }
  }

  return (
    <span className="save-to-files">
      <button type="button" className={className} disabled={disabled || state.kind === 'saving'} onClick={() => void save()}>
        {state.kind === 'saving' ? `Saving… ${Math.round(state.progress * 100)}%` : 'Save to my files'}
      </button>
      <span aria-live="polite" className="save-to-files-status">
        {state.kind === 'saved' ? (
          <>
            Saved. <Link to={PATHS.accountFiles}>My files</Link>
          </>
        ) : null}
      </span>
      {state.kind === 'failed' ? (
        <span className="field-error" role="alert">
          {state.message}
        </span>
      ) : null}
    </span>
  );
}
