import { useId, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { signInPath } from '../../routes/paths';
import { ApiError } from '../api';
import { withSentence } from '../error-sentences';
import { useSession } from '../session/session';
import { useFetchUrl } from './use-fetch-url';

/**
 * Spec section 8's download failure (type fetch_content): the server's error with ' - ' and its
 * detail, or UNAVAILABLE when no answer came; each after its sentence (shared/error-sentences.ts).
 */
export function fetchFailureText(error: unknown): string {
  if (error instanceof ApiError) return withSentence(error.error, error.detail ? `${error.error} - ${error.detail}` : error.error);
  return withSentence('UNAVAILABLE', 'UNAVAILABLE');
}

/**
 * "Load from URL": the server fetches the URL for the tool (POST /v1/users/{guid}/fetch: no CORS in
 * the way, and behind its SSRF guard), and the tool gets the content as a file, as if it had been
 * dropped. Signed out, it says 'login required' with a link to sign in.
 */
export function LoadFromUrl({ onFile }: { onFile: (file: File) => void }) {
  const [open, setOpen] = useState(false);
  // Kept while the form is closed: Cancel and Load from URL again find the same URL.
  const [url, setUrl] = useState('');
  if (!open) {
    return (
      <button type="button" className="link-button load-from-url-toggle" onClick={() => setOpen(true)}>
        Load from URL
      </button>
    );
  }
  return <UrlForm url={url} setUrl={setUrl} onFile={onFile} onClose={() => setOpen(false)} />;
}

interface UrlFormProps {
  url: string;
  setUrl: (url: string) => void;
  onFile: (file: File) => void;
  onClose: () => void;
}

function UrlForm({ url, setUrl, onFile, onClose }: UrlFormProps) {
  const session = useSession();
  const location = useLocation();
  const fetching = useFetchUrl();
  const id = useId();

  const guid = session.profile?.guid;
  function load(event: React.FormEvent) {
    event.preventDefault();
    if (!url.trim() || !guid || !session.token) return;
    fetching.mutate(
      { guid, url: url.trim() },
      {
        onSuccess: (file) => {
          onFile(file);
          setUrl('');
          onClose();
        },
      },
    );
  }
  const busy = fetching.isPending;
  const error = fetching.error ? fetchFailureText(fetching.error) : '';
  return (
    <form className="load-from-url" onSubmit={load} aria-label="Load from URL">
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
      <button type="button" className="link-button" onClick={onClose}>
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
