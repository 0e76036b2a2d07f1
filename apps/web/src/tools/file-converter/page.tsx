import { engineOf, SOURCE_FORMATS, type ConversionJobView, type FormatKind, type SourceFormat } from '@tinkerdesk/contracts/web';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { PATHS, signInPath } from '../../routes/paths';
import { errorText } from '../../shared/api';
import { useSession } from '../../shared/session/session';
import { FileDrop } from '../../shared/ui/files';
import { ToolAbout } from '../../shared/ui/ToolAbout';
import type { ToolPageProps } from '../types';
import { ConversionItem } from './ConversionItem';
import { DEFAULT_OPTIONS, OptionsPanel } from './OptionsPanel';
import { useAvailableFormats, useDeleteJob, useDownloadJob, useRecentJobs } from './queries';
import { RecentJobs } from './RecentJobs';
import { UrlForm } from './UrlForm';
import { useConversions, type ConversionOptions } from './use-conversions';

/** What each engine converts, as the About text names it (office kinds listed by what is available). */
const OFFICE_KINDS: Array<[FormatKind, string]> = [
  ['document', 'documents'],
  ['spreadsheet', 'spreadsheets'],
  ['presentation', 'presentations'],
];

function listed(parts: string[]): string {
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1) ?? ''}`;
}

/** "images with libvips, PDF pages with poppler…": what the server's workers can convert now, by engine. */
function enginesSentence(available: Iterable<SourceFormat>): string {
  const formats = [...available];
  const engines = new Set(formats.map(engineOf));
  const kinds = new Set(formats.map((f) => f.kind));
  const parts: string[] = [];
  const office = OFFICE_KINDS.filter(([kind]) => kinds.has(kind)).map(([, words]) => words);
  if (engines.has('libreoffice') && office.length > 0) parts.push(`${listed(office)} with LibreOffice`);
  if (engines.has('pdf-pages')) parts.push('PDF pages with poppler');
  if (engines.has('images')) parts.push('images with libvips');
  if (engines.has('chromium')) parts.push('web pages with a headless browser');
  return listed(parts);
}

/**
 * The explanation under the tool. It names formats and engines only from what the server says it can
 * convert now (/v1/convert/formats, signed in): a format whose engine is missing is never promised.
 */
function About({ available, signedIn = false }: { available?: ReadonlyMap<string, SourceFormat> | undefined; signedIn?: boolean }) {
  const engines = available ? enginesSentence(available.values()) : '';
  const missing = available !== undefined && SOURCE_FORMATS.some((f) => !available.has(f.id));
  return (
    <ToolAbout>
      <p>
        {engines ? <>Conversions run on Tinkerdesk&apos;s servers: {engines}. </> : <>Conversions run on Tinkerdesk&apos;s servers. </>}
        {missing ? <>Other formats cannot be converted on this server right now. </> : null}
        Uploaded files are deleted once converted; results are kept for 24 hours. The same conversions are available to programs through the{' '}
        <a href={PATHS.apiDocs}>API</a> (<code>/v1/convert</code>).
      </p>
      {available ? (
        <table className="formats-table">
          <caption>What each format can become</caption>
          <thead>
            <tr>
              <th scope="col">From</th>
              <th scope="col">To</th>
            </tr>
          </thead>
          <tbody>
            {SOURCE_FORMATS.filter((f) => available.has(f.id)).map((f) => (
              <tr key={f.id}>
                <th scope="row">{f.label}</th>
                <td>{f.to.map((t) => t.toUpperCase()).join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : signedIn ? null : (
        <p>The formats this server converts right now are listed here once you are signed in.</p>
      )}
    </ToolAbout>
  );
}

export default function FileConverterPage(_: ToolPageProps) {
  const session = useSession();
  if (!session.ready) return <p role="status">Loading…</p>;
  if (!session.loggedIn || !session.token) {
    return (
      <>
        <div className="notice" role="note">
          <div>
            <strong>Sign in to convert files.</strong> Server conversions are tied to your account, so only you can download your results.{' '}
            <Link to={signInPath(PATHS.tools + 'converters/files/')}>Sign in</Link> or{' '}
            <Link to={PATHS.register}>create a free account</Link>.
          </div>
        </div>
        <About />
      </>
    );
  }
  return <Converter />;
}

/** The signed-in converter: files and URLs to convert, their options, and the recent conversions. */
function Converter() {
  const [options, setOptions] = useState<ConversionOptions>(DEFAULT_OPTIONS);
  const available = useAvailableFormats();
  const conversions = useConversions(options, available);
  const recent = useRecentJobs();
  const download = useDownloadJob();
  const removal = useDeleteJob();
  // The last action's failure, else the list's.
  const failure = download.error ?? removal.error ?? recent.error;
  const downloadJob = (job: ConversionJobView) => {
    removal.reset();
    download.mutate(job);
  };

  const items = conversions.items;
  return (
    <>
      <FileDrop multiple onFiles={conversions.addFiles} label="Choose files" fromUrl={false}>
        Drop files here or paste them
      </FileDrop>
      <UrlForm onAdd={conversions.addUrl} />
      <OptionsPanel options={options} onChange={(key, value) => setOptions((o) => ({ ...o, [key]: value }))} />

      {items.length === 0 ? (
        <p className="empty-state">Add files or a URL to convert. You can convert several at once.</p>
      ) : (
        <ul className="conversion-list" aria-label="Conversions">
          {items.map((item) => (
            <ConversionItem
              key={item.key}
              item={item}
              available={available}
              onTarget={(to) => conversions.setTarget(item.key, to)}
              onStart={() => void conversions.start(item)}
              onDiscard={() => conversions.discard(item.key)}
              onDownload={downloadJob}
            />
          ))}
        </ul>
      )}
      {conversions.anyReady ? (
        <p>
          <button type="button" className="button button-primary" onClick={() => void conversions.startAll()}>
            Convert all
          </button>
        </p>
      ) : null}

      <RecentJobs
        recent={recent.data}
        error={failure ? errorText(failure) : ''}
        onDownload={downloadJob}
        onRemove={(job) => {
          download.reset();
          removal.mutate(job, { onSuccess: () => conversions.forgetJob(job.id) });
        }}
      />
      <About available={available} signedIn />
    </>
  );
}
