import { buildDataUri } from '@tinkerdesk/tools/data-uri';
import { detectFileKind, mediaTypeOf, SNIFF_BYTES } from '@tinkerdesk/tools/file-kind';
import { useMemo, useState } from 'react';
import type { Base64Job, EncodeResult } from '../base64-encode/base64-jobs';
import { useBase64Job } from '../base64-encode/use-base64-job';
import { CopyButton, DownloadButton } from '../../shared/ui/actions';
import { BlobPreview, canPreview } from '../../shared/ui/BlobPreview';
import { formatCount, formatSize } from '../../shared/ui/format';
import { TextOrFileInput, TaskProgress } from '../../shared/ui/TextOrFileInput';
import { TextPane } from '../../shared/ui/TextPane';
import { useAsyncValue } from '../../shared/ui/use-async-value';
import { ToolAbout } from '../../shared/ui/ToolAbout';
import { setting, useUrlSettings } from '../../shared/ui/url-settings';
import type { ToolPageProps } from '../types';

const SETTINGS = {
  encoding: setting.choice(['base64', 'percent'] as const, 'base64'),
  wrapper: setting.choice(['uri', 'css', 'html', 'markdown'] as const, 'uri'),
};
type Wrapper = (typeof SETTINGS.wrapper)['default'];

/** Percent-encoding is offered up to this size; beyond it, Base64 (built in the worker) is used. */
const PERCENT_MAX = 1024 * 1024;
/** Browsers accept long data: URIs, but some other programs stop at a few megabytes. */
const LONG_URI = 2 * 1024 * 1024;

const EXAMPLES = [
  { label: 'Plain text', input: 'Hello, World!' },
  {
    label: 'An SVG icon',
    input: '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24"><circle cx="12" cy="12" r="10" fill="#4f46e5"/></svg>',
  },
];

function wrap(uri: string, wrapper: Wrapper, name: string): string {
  switch (wrapper) {
    case 'css':
      return `url("${uri}")`;
    case 'html':
      return `<img src="${uri}" alt="${name.replace(/["<>&]/g, '')}">`;
    case 'markdown':
      return `![${name.replace(/[[\]]/g, '')}](${uri})`;
    default:
      return uri;
  }
}

/** The media type of a file: what the browser says, else its extension, else its content. */
async function mediaTypeOfFile(file: File): Promise<string> {
  // application/octet-stream says nothing: look further, as for no type at all.
  if (file.type && file.type !== 'application/octet-stream') return file.type;
  const byName = mediaTypeOf(file.name);
  if (byName) return byName;
  const kind = await detectFileKind(new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer()), file.size <= SNIFF_BYTES);
  return kind.text ? `${kind.mime};charset=utf-8` : kind.mime;
}

export default function DataUriFromFilePage(_props: ToolPageProps) {
  const [settings, update] = useUrlSettings(SETTINGS);
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const fileType = useAsyncValue(useMemo(() => (file ? () => mediaTypeOfFile(file) : null), [file]));
  const mediaType = file ? (fileType ?? '') : /^\s*<svg[\s>]/i.test(text) ? 'image/svg+xml' : 'text/plain;charset=utf-8';

  const size = file ? file.size : new TextEncoder().encode(text).length;
  const percent = settings.encoding === 'percent' && size <= PERCENT_MAX;
  // Base64 of anything larger than a paste goes through the worker (with progress); the rest is instant.
  const job = useMemo<Base64Job | null>(
    () => (file && !percent ? { op: 'encode', source: file, alphabet: 'standard', padding: true, lineLength: 0 } : null),
    [file, percent],
  );
  const encoded = useBase64Job<EncodeResult>(job);
  const encoding = percent ? 'percent' : 'base64';
  const inWorker = job !== null;
  const buildSmall = useMemo(() => {
    const input = file ?? (text ? new Blob([text]) : null);
    if (!input || inWorker || !mediaType) return null;
    return async () => buildDataUri(new Uint8Array(await input.arrayBuffer()), mediaType, encoding);
  }, [file, text, inWorker, mediaType, encoding]);
  const small = useAsyncValue(buildSmall) ?? null;

  const name = file?.name || 'image';
  const prefix = `data:${mediaType};base64,`;
  let output = '';
  let whole: Blob | string = '';
  let length = 0;
  let complete = true;
  if (small !== null) {
    output = wrap(small, settings.wrapper, name);
    whole = output;
    length = output.length;
  } else if (job && encoded.result && mediaType) {
    const [before, after] = wrap('\u0000', settings.wrapper, name).split('\u0000') as [string, string];
    complete = encoded.result.complete;
    output = before + prefix + encoded.result.preview + (complete ? after : '');
    whole = new Blob([before, prefix, encoded.result.blob, after], { type: 'text/plain' });
    length = before.length + prefix.length + encoded.result.length + after.length;
  }
  const uriLength = settings.wrapper === 'uri' ? length : undefined;

  return (
    <>
      <div className="tool-settings" role="group" aria-label="Settings">
        <label>
          Encoding
          <select value={settings.encoding} onChange={(e) => update({ encoding: e.target.value as 'base64' | 'percent' })}>
            <option value="base64">Base64 (any file)</option>
            <option value="percent">Percent-encoding (text, SVG)</option>
          </select>
        </label>
        <label>
          Output as
          <select value={settings.wrapper} onChange={(e) => update({ wrapper: e.target.value as Wrapper })}>
            <option value="uri">Data URI</option>
            <option value="css">CSS url()</option>
            <option value="html">HTML &lt;img&gt;</option>
            <option value="markdown">Markdown image</option>
          </select>
        </label>
      </div>
      {settings.encoding === 'percent' && size > PERCENT_MAX ? (
        <p className="notice" role="status">
          Percent-encoding is offered for files up to {formatSize(PERCENT_MAX)}; this one is encoded with Base64.
        </p>
      ) : null}

      <div className="tool-panes">
        <TextOrFileInput
          text={text}
          onText={setText}
          file={file}
          onFile={setFile}
          rows={8}
          fileDetail={file && mediaType && mediaType !== file.type ? `read as ${mediaType}` : undefined}
          placeholder="Type or paste text, or drop a file below"
          dropText="Drop an image or any file here or paste it"
          below={
            file && canPreview(mediaType) ? <BlobPreview blob={file} mediaType={mediaType} label={`Preview of ${file.name}`} /> : undefined
          }
        />
        <TextPane
          id="output"
          label="Output"
          value={output}
          readOnly
          placeholder="The data URI appears here"
          info={
            length > 0
              ? `${formatCount(length)} characters · ${mediaType}${complete ? '' : ` — showing the beginning; copy or download for all of it`}${
                  uriLength !== undefined && uriLength > LONG_URI ? ' · long data URIs work in browsers but not in every other program' : ''
                }`
              : undefined
          }
          actions={
            <>
              <CopyButton text={whole} disabled={length === 0} />
              <DownloadButton data={whole} filename={`${file?.name || 'text'}.data-uri.txt`} disabled={length === 0} />
            </>
          }
        />
      </div>
      <TaskProgress busy={encoded.busy} progress={encoded.progress} label="Encoding" onCancel={encoded.cancel} />
      {encoded.error ? (
        <p className="field-error" role="alert">
          {encoded.error.message}
        </p>
      ) : null}

      <ToolAbout examples={EXAMPLES} onExample={(input) => (setFile(null), setText(input))}>
        <p>
          A data URI (RFC 2397) puts a whole file into a URL: <code>data:</code>, the media type, and the bytes, so an image or font can sit
          inside HTML, CSS, JSON or an email without a separate file. The media type comes from the file itself (PNG, JPEG, PDF, SVG and
          many more are recognised by their content when the name does not say).
        </p>
        <p>
          Base64 works for every file and grows it by a third. Percent-encoding keeps text and SVG readable and is often smaller for them.
          Large files are encoded in a background worker with progress; nothing leaves your browser.
        </p>
      </ToolAbout>
    </>
  );
}
