import { TARGET_FORMATS } from '@tinkerdesk/contracts/web';
import { useId, useState, type FormEvent } from 'react';
import { targetLabel } from './targets';

/** "Or a URL": a web page or a file on the web, and what to convert it to. */
export function UrlForm({ onAdd }: { onAdd: (url: string, kind: 'page' | 'file', to: string) => void }) {
  const [url, setUrl] = useState('');
  const [urlKind, setUrlKind] = useState<'page' | 'file'>('page');
  const [urlTo, setUrlTo] = useState('pdf');
  const urlId = useId();

  function add(event: FormEvent) {
    event.preventDefault();
    const value = url.trim();
    if (!value) return;
    onAdd(value, urlKind, urlTo);
    setUrl('');
  }

  return (
    <form className="tool-form url-form" onSubmit={add} aria-label="Convert a URL">
      <div className="field field-wide">
        <label htmlFor={urlId}>Or a URL</label>
        <input
          id={urlId}
          type="url"
          inputMode="url"
          placeholder="https://example.com/"
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
            setUrlKind(e.target.value as 'page' | 'file');
            setUrlTo('pdf');
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
  );
}
