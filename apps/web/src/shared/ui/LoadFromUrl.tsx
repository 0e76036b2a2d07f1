import type { FetchedContentView } from '@tinkerdesk/contracts/web';
import { useId, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { signInPath } from '../../routes/paths';
import { ApiError } from '../api';
import { useSession } from '../session/session';
import { fetchUrlContent } from './api';

/**
 * Spec section 8's download failure (type fetch_content): the server's error with ' - ' and its
 * detail, or UNAVAILABLE when no answer came.
 */
export function fetchFailureText(error: unknown): string {
  if (error instanceof ApiError) return error.detail ? `${error.error} - ${error.detail}` : error.error;
  return 'UNAVAILABLE';
}

function fileOf(content: FetchedContentView): File {
  const binary = atob(content.content);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new File([bytes], content.filename || 'download', { type: content.contentType.split(';')[0] ?? '' });
}

/**
 * "Load from URL": the server fetches the URL for the tool (POST /v1/users/{guid}/fetch: no CORS in
 * the way, and behind its SSRF guard), and the tool gets the content as a file, as if it had been
 * dropped. Signed out, it says 'login required' with a link to sign in.
 */
export function LoadFromUrl({ onFile }: { onFile: (file: File) => void }) {
  const session = useSession();
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const [url, setUrl] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const id = useId();

  if (!open) {
    return (
      <button type="button" className="link-button load-from-url-toggle" onClick={() => setOpen(true)}>
        Load from URL
      </button>
    );
  }
  const guid = session.profile?.guid;
  async function load(event: React.FormEvent) {
    event.preventDefault();
    if (!url.trim() || !guid || !session.token) return;
    setBusy(true);
    setError('');
    try {
      const content = await fetchUrlContent(guid, url.trim());
      onFile(fileOf(content));
      setUrl('');
      setOpen(false);
    } catch (failure) {
      setError(fetchFailureText(failure));
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="load-from-url" onSubmit={(e) => void load(e)} aria-label="Load from URL">
      {session.loggedIn && guid ? (
        <>
          <label htmlFor={id}>URL</label>
          <input
            id={id}
            type="url"
            inputMode="url"
            placeholder="https://example.com/file"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            autoFocus
          />
          <button type="submit" className="button button-small" disabled={busy || !url.trim()}>
            {busy ? 'Loading…' : 'Load'}
          </button>
        </>
      ) : (
        <p className="field-error" role="alert" data-type="fetch_content">
          login required: <Link to={signInPath(location.pathname)}>sign in</Link> to load files from a URL (the server fetches them for
          you).
        </p>
      )}
      <button type="button" className="link-button" onClick={() => setOpen(false)}>
        Cancel
      </button>
      {error ? (
        <p className="field-error" role="alert" data-type="fetch_content">
          {error}
        </p>
      ) : null}
    </form>
  );
}
