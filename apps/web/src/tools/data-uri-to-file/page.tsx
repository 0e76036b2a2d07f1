import { dataUriFileName, DataUriError, parseDataUri, type DataUri } from '@tinkerdesk/tools/data-uri';
import { detectFileKind, looksLikeText, SNIFF_BYTES } from '@tinkerdesk/tools/file-kind';
import { hexDump } from '@tinkerdesk/tools/hex-dump';
import { useMemo, useState } from 'react';
import { CopyButton, DownloadButton } from '../../shared/ui/actions';
import { BlobPreview, canPreview } from '../../shared/ui/BlobPreview';
import { FileDrop } from '../../shared/ui/files';
import { formatSize } from '../../shared/ui/format';
import { TextPane } from '../../shared/ui/TextPane';
import { ToolAbout } from '../../shared/ui/ToolAbout';
import { useAsyncValue } from '../../shared/ui/use-async-value';
import { useInputHistory } from '../../shared/ui/use-input-history';
import type { ToolPageProps } from '../types';

/** A text file dropped here is read as the data URI; this is more than any browser takes. */
const MAX_TEXT_FILE = 64 * 1024 * 1024;
const HEX_BYTES = 1024;

const EXAMPLES = [
  { label: 'Text', input: 'data:text/plain;charset=utf-8,Hello%2C%20W%C3%B6rld%21' },
  {
    label: 'SVG image',
    input:
      "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='48' height='48'%3E%3Crect width='48' height='48' rx='10' fill='%234f46e5'/%3E%3Ccircle cx='24' cy='24' r='10' fill='white'/%3E%3C/svg%3E",
  },
  {
    label: 'PNG image',
    input:
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAbUlEQVQI1xXOUREAUQhCUaMYhShEMcqNQhSi7Fs/OQzjzLCDBg83MGToMLPsosXLLSxZug/ECgmLE4iI6oFZI2NzBhNTPzj20OHjDo4cvQf/7Bt41Rf+F+h7YsIGBYfLHyc0D8oWFZfrX05p+QDeqGABkXynIAAAAABJRU5ErkJggg==',
  },
  { label: 'Named PDF', input: 'data:application/pdf;name=hello.pdf;base64,JVBERi0xLjQKJcOkw7zDtsOfCg==' },
];

function isTextType(data: DataUri): boolean {
  return (
    data.essence.startsWith('text/') ||
    /[/+](json|xml|javascript|ecmascript|csv|svg\+xml)$/.test(data.essence) ||
    data.charset !== undefined
  );
}

/** The text in its charset; ASCII that is really UTF-8 (common) and unknown charsets are read as UTF-8. */
function decodeText(data: DataUri): string {
  const charset = data.charset?.toLowerCase();
  if (charset && !/^(us-)?ascii$/.test(charset)) {
    try {
      return new TextDecoder(charset).decode(data.bytes);
    } catch {
      // an unknown charset label: fall back to UTF-8
    }
  }
  return new TextDecoder().decode(data.bytes);
}

export default function DataUriToFilePage({ tool }: ToolPageProps) {
  const [text, setText] = useState('');
  const [readError, setReadError] = useState('');
  const [nameEdit, setNameEdit] = useState<{ for: DataUri; name: string } | null>(null);
  useInputHistory(tool.id, text.length <= 20_000 ? text : '');

  const parsed = useMemo((): { data?: DataUri; error?: string } => {
    if (text.trim() === '') return {};
    try {
      return { data: parseDataUri(text) };
    } catch (error) {
      return { error: error instanceof DataUriError ? error.message : String(error) };
    }
  }, [text]);
  const data = parsed.data;
  const detect = useMemo(
    () => (data ? () => detectFileKind(data.bytes.subarray(0, SNIFF_BYTES), data.bytes.length <= SNIFF_BYTES) : null),
    [data],
  );
  const kind = useAsyncValue(detect);
  const blob = useMemo(() => (data ? new Blob([data.bytes as BlobPart], { type: data.mediaType }) : null), [data]);

  const showAsText = data !== undefined && (isTextType(data) || (data.essence === 'application/octet-stream' && looksLikeText(data.bytes)));
  const output = data ? (showAsText ? decodeText(data) : hexDump(data.bytes.subarray(0, HEX_BYTES))) : '';
  const suggested = data ? dataUriFileName(data, kind?.ext) : 'file';
  const fileName = nameEdit && nameEdit.for === data ? nameEdit.name : suggested;
  // A media type that says nothing (octet-stream) is replaced by what the content turns out to be.
  const previewType = data ? (data.essence === 'application/octet-stream' && kind ? kind.mime : data.essence) : '';

  const readFile = async (file: File) => {
    setReadError('');
    if (file.size > MAX_TEXT_FILE) {
      setReadError(`That file is ${formatSize(file.size)}; a data URI file can be up to ${formatSize(MAX_TEXT_FILE)}.`);
      return;
    }
    setText(await file.text());
  };

  return (
    <>
      <div className="tool-panes">
        <div className="tool-input">
          <TextPane
            id="input"
            label="Input"
            value={text}
            onChange={setText}
            placeholder="Paste a data: URI, e.g. data:image/png;base64,iVBORw0…"
            error={parsed.error ?? (readError || undefined)}
            actions={
              <button type="button" className="button button-small" onClick={() => setText('')} disabled={!text}>
                Clear
              </button>
            }
          />
          <FileDrop onFiles={([f]) => f && void readFile(f)} accept=".txt,text/plain">
            Or drop a text file that holds a data URI
          </FileDrop>
        </div>
        <div className="tool-output">
          <TextPane
            id="output"
            label="Output"
            value={output}
            readOnly
            wrap={data && !showAsText ? 'off' : 'soft'}
            placeholder="The decoded content appears here"
            info={
              data
                ? `${data.mediaType}${data.base64 ? ' · Base64' : ' · percent-encoded'} · ${formatSize(data.bytes.length)}${
                    !showAsText && data.bytes.length > HEX_BYTES ? ' — the hex view shows the first 1,024 bytes' : ''
                  }`
                : undefined
            }
            actions={<CopyButton text={output} disabled={!data} label={data && !showAsText ? 'Copy hex' : 'Copy'} />}
          />
          {data ? (
            <div className="tool-save">
              <label>
                File name
                <input type="text" value={fileName} onChange={(e) => setNameEdit({ for: data, name: e.target.value })} spellCheck={false} />
              </label>
              <DownloadButton data={blob ?? ''} filename={fileName.trim() || suggested} label="Download" />
            </div>
          ) : null}
          {data && blob && canPreview(previewType) ? (
            <BlobPreview blob={blob} mediaType={previewType} label={`Preview of ${fileName}`} />
          ) : null}
        </div>
      </div>

      <ToolAbout examples={EXAMPLES} onExample={setText}>
        <p>
          Paste a data URI (RFC 2397) to see what it holds: its media type, size and encoding, a preview of images, audio and video, the
          text when it is text (else a hex dump), and a download under a sensible file name (from its name parameter when it has one, else
          from its media type or content). It reads data URIs the way browsers do, and says exactly what is wrong with one that does not
          parse.
        </p>
        <p>An SVG is previewed as an image, where it can neither run scripts nor load anything. Nothing leaves your browser.</p>
      </ToolAbout>
    </>
  );
}
