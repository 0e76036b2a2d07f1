import { useMemo, useState } from 'react';
import { CopyButton, DownloadButton } from '../../shared/ui/actions';
import { formatCount, formatSize } from '../../shared/ui/format';
import { TextOrFileInput, TaskProgress } from '../../shared/ui/TextOrFileInput';
import { TextPane } from '../../shared/ui/TextPane';
import { ToolAbout } from '../../shared/ui/ToolAbout';
import { setting, useUrlSettings } from '../../shared/ui/url-settings';
import { useInputHistory } from '../../shared/ui/use-input-history';
import type { ToolPageProps } from '../types';
import type { Base64Job, EncodeResult } from './base64-jobs';
import { useBase64Job } from './use-base64-job';

const SETTINGS = {
  alphabet: setting.choice(['standard', 'url'] as const, 'standard'),
  padding: setting.flag(true),
  wrap: setting.choice(['0', '76', '64'] as const, '0'),
};

const EXAMPLES = [
  { label: 'Plain text', input: 'Hello, World!' },
  { label: 'Accents and emoji', input: 'Grüße aus Zürich 👋🏽' },
  { label: 'JSON', input: '{"user":"ada","roles":["admin"]}' },
];

export default function Base64EncodePage({ tool }: ToolPageProps) {
  const [settings, update] = useUrlSettings(SETTINGS);
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  useInputHistory(tool.id, file ? '' : text);

  const job = useMemo<Base64Job | null>(() => {
    const source = file ?? text;
    if (!file && text === '') return null;
    return { op: 'encode', source, alphabet: settings.alphabet, padding: settings.padding, lineLength: Number(settings.wrap) };
  }, [file, text, settings.alphabet, settings.padding, settings.wrap]);
  const { result, error, busy, progress, cancel } = useBase64Job<EncodeResult>(job);
  const shown = job ? result : null;
  const output = shown?.preview ?? '';
  const downloadName = file ? `${file.name || 'file'}.base64.txt` : 'base64.txt';

  return (
    <>
      <div className="tool-settings" role="group" aria-label="Settings">
        <label>
          Alphabet
          <select value={settings.alphabet} onChange={(e) => update({ alphabet: e.target.value as 'standard' | 'url' })}>
            <option value="standard">Standard (+ /)</option>
            <option value="url">URL-safe (- _)</option>
          </select>
        </label>
        <label>
          <input type="checkbox" checked={settings.padding} onChange={(e) => update({ padding: e.target.checked })} />
          Padding (=)
        </label>
        <label>
          Line breaks
          <select value={settings.wrap} onChange={(e) => update({ wrap: e.target.value as '0' | '76' | '64' })}>
            <option value="0">None</option>
            <option value="76">Every 76 characters (MIME)</option>
            <option value="64">Every 64 characters (PEM)</option>
          </select>
        </label>
      </div>

      <div className="tool-panes">
        <TextOrFileInput
          text={text}
          onText={setText}
          file={file}
          onFile={setFile}
          placeholder="Type or paste text (encoded as UTF-8)"
          info={text ? `${formatCount(text.length)} characters` : undefined}
          dropText={file ? 'Drop another file here or paste it' : 'Or drop a file of any size here or paste it'}
        />
        <TextPane
          id="output"
          label="Output"
          value={output}
          readOnly
          placeholder="The Base64 text appears here"
          info={
            shown
              ? `${formatCount(shown.length)} characters from ${formatSize(shown.inputBytes)}${
                  shown.complete ? '' : ` — showing the first ${formatCount(output.length)}; copy or download for all of it`
                }`
              : undefined
          }
          actions={
            <>
              <CopyButton text={shown?.complete ? output : (shown?.blob ?? '')} disabled={!shown || shown.length === 0} />
              <DownloadButton data={shown?.blob ?? ''} filename={downloadName} disabled={!shown || shown.length === 0} />
            </>
          }
        />
      </div>
      <TaskProgress busy={busy} progress={progress} label="Encoding" onCancel={cancel} />
      {error ? (
        <p className="field-error" role="alert">
          {error.message}
        </p>
      ) : null}

      <ToolAbout examples={EXAMPLES} onExample={(input) => (setFile(null), setText(input))}>
        <p>
          Base64 writes any bytes with 64 safe characters (RFC 4648), four characters for every three bytes. Text is encoded as UTF-8 first,
          so accents, other scripts and emoji come back exactly. Files of any size are read in pieces in a background worker, with progress;
          nothing leaves your browser.
        </p>
        <ul>
          <li>
            <strong>URL-safe</strong> uses - and _ instead of + and /, for URLs, file names and JSON Web Tokens (which also leave out the
            padding).
          </li>
          <li>
            <strong>Line breaks</strong> every 76 characters suit email (MIME); every 64 suit PEM files such as certificates.
          </li>
        </ul>
      </ToolAbout>
    </>
  );
}
