import { looksLikeJwt } from '@tinkerdesk/tools/base64';
import { hexDump } from '@tinkerdesk/tools/hex-dump';
import { useMemo, useState } from 'react';
import { type Base64Job, type DecodeResult } from '../base64-encode/base64-jobs';
import { useBase64Job } from '../base64-encode/use-base64-job';
import { CopyButton, DownloadButton } from '../../shared/ui/actions';
import { BlobPreview, canPreview } from '../../shared/ui/BlobPreview';
import { formatCount, formatSize } from '../../shared/ui/format';
import { TextOrFileInput, TaskProgress } from '../../shared/ui/TextOrFileInput';
import { TextPane } from '../../shared/ui/TextPane';
import { ToolAbout } from '../../shared/ui/ToolAbout';
import { setting, useUrlSettings } from '../../shared/ui/url-settings';
import { useInputHistory } from '../../shared/ui/use-input-history';
import type { ToolPageProps } from '../types';

const SETTINGS = { alphabet: setting.choice(['auto', 'standard', 'url'] as const, 'auto') };
const HEX_BYTES = 1024;

const EXAMPLES = [
  { label: 'Text', input: 'SGVsbG8sIFdvcmxkIQ==' },
  { label: 'Emoji, no padding', input: '8J+Ri/Cfj70g8J2Eng' },
  {
    label: 'A tiny PNG image',
    input:
      'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAbUlEQVQI1xXOUREAUQhCUaMYhShEMcqNQhSi7Fs/OQzjzLCDBg83MGToMLPsosXLLSxZug/ECgmLE4iI6oFZI2NzBhNTPzj20OHjDo4cvQf/7Bt41Rf+F+h7YsIGBYfLHyc0D8oWFZfrX05p+QDeqGABkXynIAAAAABJRU5ErkJggg==',
  },
  { label: 'URL-safe JWT part', input: 'eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkrDtnJnIn0' },
];

function describeKind(result: DecodeResult): string {
  if (result.text !== undefined) return 'Text (UTF-8)';
  const { mime, ext } = result.kind;
  if (mime === 'application/octet-stream') return 'Binary data (type not recognised)';
  return `${ext.toUpperCase()} file (${mime})`;
}

export default function Base64DecodePage({ tool }: ToolPageProps) {
  const [settings, update] = useUrlSettings(SETTINGS);
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  useInputHistory(tool.id, file ? '' : text);

  const job = useMemo<Base64Job | null>(() => {
    if (!file && text.trim() === '') return null;
    return { op: 'decode', source: file ?? text, alphabet: settings.alphabet };
  }, [file, text, settings.alphabet]);
  const { result, error, busy, progress, cancel } = useBase64Job<DecodeResult>(job);
  const shown = job && !error ? result : null;
  const output = shown ? (shown.text ?? hexDump(shown.head.subarray(0, HEX_BYTES))) : '';
  const filename = `decoded.${shown?.kind.ext ?? 'bin'}`;

  const showErrorInInput = (index: number) => {
    const area = document.getElementById('input') as HTMLTextAreaElement | null;
    if (!area) return;
    area.focus();
    area.setSelectionRange(index, Math.min(text.length, index + 1));
  };

  return (
    <>
      <div className="tool-settings" role="group" aria-label="Settings">
        <label>
          Alphabet
          <select value={settings.alphabet} onChange={(e) => update({ alphabet: e.target.value as 'auto' | 'standard' | 'url' })}>
            <option value="auto">Detect (standard or URL-safe)</option>
            <option value="standard">Standard (+ /)</option>
            <option value="url">URL-safe (- _)</option>
          </select>
        </label>
      </div>

      <div className="tool-panes">
        <TextOrFileInput
          text={text}
          onText={setText}
          file={file}
          onFile={setFile}
          placeholder="Paste Base64 (line breaks, spaces and missing padding are fine)"
          dropText="Or drop a text file with Base64 in it (any size) or paste it"
          below={
            error ? (
              <div className="field-error" role="alert">
                <span>
                  {error.message}
                  {!file && looksLikeJwt(text)
                    ? '. This looks like a JWT: Base64url parts joined by dots. Paste one part at a time: the first (header) and the second (payload) decode to JSON.'
                    : ''}
                </span>
                {!file && error.index !== undefined ? (
                  <button type="button" className="link-button" onClick={() => showErrorInInput(error.index!)}>
                    Show it in the input
                  </button>
                ) : null}
              </div>
            ) : undefined
          }
        />
        <div className="tool-output">
          <TextPane
            id="output"
            label="Output"
            value={output}
            readOnly
            wrap={shown && shown.text === undefined ? 'off' : 'soft'}
            placeholder="The decoded text appears here; binary data is shown as hex and offered as a file"
            info={
              shown
                ? `${describeKind(shown)} · ${formatSize(shown.size)}${
                    shown.text === undefined && shown.size > HEX_BYTES
                      ? ` — the hex view shows the first ${formatCount(HEX_BYTES)} bytes`
                      : ''
                  }`
                : undefined
            }
            actions={
              <>
                <CopyButton
                  text={output}
                  disabled={!shown || output === ''}
                  label={shown && shown.text === undefined ? 'Copy hex' : 'Copy'}
                />
                <DownloadButton
                  data={shown?.blob ?? ''}
                  filename={filename}
                  disabled={!shown}
                  label={shown ? `Download ${filename}` : 'Download'}
                />
              </>
            }
          />
          {shown && canPreview(shown.kind.mime) ? (
            <BlobPreview
              blob={shown.blob}
              mediaType={shown.kind.mime}
              label={`Preview of the decoded ${shown.kind.ext.toUpperCase()} file`}
            />
          ) : null}
        </div>
      </div>
      <TaskProgress busy={busy} progress={progress} label="Decoding" onCancel={cancel} />

      <ToolAbout examples={EXAMPLES} onExample={(input) => (setFile(null), setText(input))}>
        <p>
          Turns Base64 (RFC 4648) back into what it encodes. Spaces and line breaks are skipped and missing padding is fine; a character
          that does not belong is reported with its exact position, line and column. Both alphabets are understood: standard (+ /) and
          URL-safe (- _, as in JSON Web Tokens).
        </p>
        <p>
          Text comes out as UTF-8. Anything else is recognised by its content (PNG, JPEG, PDF, ZIP and many more), shown as a hex dump,
          previewed when it is an image, and offered as a download with the right file extension. Large inputs are decoded in a background
          worker; nothing leaves your browser.
        </p>
      </ToolAbout>
    </>
  );
}
