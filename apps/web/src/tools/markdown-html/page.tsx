import { firstHeading, htmlDocument } from '@tinkerdesk/tools/markdown';
import { useEffect, useMemo, useState } from 'react';
import { CopyButton, DownloadButton } from '../../shared/ui/actions';
import { fieldText } from '../../shared/ui/field-text';
import { formatCount } from '../../shared/ui/format';
import { ConverterInput, useTextSource } from '../../shared/ui/ConverterInput';
import { TaskProgress } from '../../shared/ui/TextOrFileInput';
import { TextPane } from '../../shared/ui/TextPane';
import { ToolAbout } from '../../shared/ui/ToolAbout';
import { setting, useUrlSettings } from '../../shared/ui/url-settings';
import { useConversion } from '../../shared/ui/use-conversion';
import { useInputHistory } from '../../shared/ui/use-input-history';
import type { ToolPageProps } from '../types';
import { convertMarkdownText, WORKER_THRESHOLD, type MarkdownJob } from './markdown-job';
import { sanitizePreview } from './sanitize';

const SETTINGS = {
  gfm: setting.flag(true),
  html: setting.flag(true),
  breaks: setting.flag(false),
};

const EXAMPLES = [
  {
    label: 'README',
    input:
      '# Tinkerdesk\n\nSmall tools that run **in your browser**. Read the [help](/help) or visit www.commonmark.org.\n\n## Install\n\n```sh\nnpm install && npm start\n```\n\n> Nothing you type here leaves your device.\n',
  },
  {
    label: 'Table and tasks',
    input:
      '| Tool | Status |\n|:-----|:------:|\n| Base64 | ~~beta~~ done |\n| Markdown | done |\n\n- [x] Write the converter\n- [x] Sanitize the preview\n- [ ] Ship it\n',
  },
  {
    label: 'Nested lists',
    input: '1. First\n   - a\n   - b\n2. Second\n\n   A paragraph inside the item.\n\n3. Third *with emphasis* and `code`\n',
  },
];

const createWorker = () => new Worker(new URL('./markdown.worker.ts', import.meta.url), { type: 'module' });

export default function MarkdownHtmlPage({ tool }: ToolPageProps) {
  const [settings, update] = useUrlSettings(SETTINGS);
  const source = useTextSource(WORKER_THRESHOLD);
  const { text: markdown, setText: setMarkdown, file, readError } = source;
  useInputHistory(tool.id, file ? '' : markdown);

  const { gfm, html, breaks } = settings;
  const job = useMemo<MarkdownJob | null>(
    () => (file || markdown ? { source: file ?? markdown, options: { gfm, html, breaks } } : null),
    [file, markdown, gfm, html, breaks],
  );
  const large = file !== null || markdown.length >= WORKER_THRESHOLD;
  const { result, busy, progress, cancel } = useConversion(job, large, convertMarkdownText, createWorker);
  const converted = job ? result?.value : undefined;
  const failure = job ? result?.error?.message : undefined;
  const output = converted?.html ?? '';
  const field = fieldText(output);
  const [fullPreview, setFullPreview] = useState(false);
  const cut = fullPreview ? output.length : previewCut(output);
  const preview = useMemo(() => (output ? sanitizePreview(output.slice(0, cut)) : ''), [output, cut]);
  const ms = converted?.ms;

  useEffect(() => {
    // For bench/markdown-browser.mjs: how long the conversion itself took.
    if (ms !== undefined) performance.measure('markdown-convert', { start: performance.now() - ms, duration: ms });
  }, [ms, output]);

  const title = useMemo(
    () => (file ? undefined : firstHeading(markdown)) ?? file?.name.replace(/\.[^.]*$/, '') ?? 'Document',
    [file, markdown],
  );

  return (
    <>
      <div className="tool-settings" role="group" aria-label="Settings">
        <label>
          <input type="checkbox" checked={gfm} onChange={(e) => update({ gfm: e.target.checked })} />
          GitHub Flavored Markdown
        </label>
        <label>
          <input type="checkbox" checked={html} onChange={(e) => update({ html: e.target.checked })} />
          Allow raw HTML
        </label>
        <label>
          <input type="checkbox" checked={breaks} onChange={(e) => update({ breaks: e.target.checked })} />
          Line breaks as &lt;br&gt;
        </label>
      </div>

      <div className="tool-panes">
        <ConverterInput source={source} what="Markdown" problem={readError || failure} />
        <div className="tool-output">
          <TextPane
            id="output"
            label="Output"
            value={field.shown}
            readOnly
            placeholder="The HTML appears here"
            info={
              converted && output
                ? `${formatCount(output.length)} characters of HTML · converted in ${converted.ms < 10 ? converted.ms.toFixed(1) : Math.round(converted.ms)} ms` +
                  (field.note ? ` · ${field.note}` : '')
                : undefined
            }
            actions={
              <>
                <CopyButton text={() => output} disabled={!output} />
                <CopyButton
                  text={() => textOf(preview)}
                  label="Copy formatted"
                  disabled={!output}
                  rich={() => new Blob([preview], { type: 'text/html' })}
                />
                <DownloadButton
                  data={() => htmlDocument(output, title)}
                  filename={`${fileStem(title)}.html`}
                  type="text/html;charset=utf-8"
                  disabled={!output}
                />
              </>
            }
          />
          <TaskProgress busy={busy} progress={progress} label="Converting" onCancel={cancel} />
        </div>
      </div>

      <section className="markdown-preview-box" aria-labelledby="preview-heading">
        <h2 id="preview-heading">Preview</h2>
        {preview ? (
          <>
            {cut < output.length ? (
              <p className="notice" role="status">
                The preview shows the first {formatCount(cut)} of {formatCount(output.length)} characters of HTML, so the page stays quick.{' '}
                <button type="button" className="link-button" onClick={() => setFullPreview(true)}>
                  Show the whole document (this can take a few seconds)
                </button>
              </p>
            ) : null}
            <div className="markdown-preview" role="document" aria-label="Preview" dangerouslySetInnerHTML={{ __html: preview }} />
          </>
        ) : (
          <p className="empty-state-text">The rendered Markdown appears here as you type.</p>
        )}
      </section>

      <ToolAbout examples={EXAMPLES} onExample={setMarkdown}>
        <p>
          Converts Markdown to HTML following the <a href="https://spec.commonmark.org/">CommonMark specification</a> (every example of the
          spec gives exactly the spec&apos;s HTML), plus the GitHub Flavored Markdown extensions: tables with column alignment,{' '}
          <s>strikethrough</s>, task lists and automatic links for web and e-mail addresses.
        </p>
        <p>
          The Output field holds the HTML source; the preview renders it after removing anything that could run code: scripts, event
          handlers, <code>javascript:</code> links, frames and forms. Links open in a new tab, and images from other sites are not loaded in
          the preview (your Markdown keeps them). Download saves a complete HTML page titled after the first heading; Copy formatted puts
          rich text on the clipboard for pasting into e-mail or a word processor.
        </p>
        <p>Large documents are converted in the background; everything stays in your browser.</p>
      </ToolAbout>
    </>
  );
}

/** The live preview renders up to about this much HTML; a longer document is cut after a top-level block. */
const PREVIEW_LIMIT = 150_000;

function previewCut(html: string): number {
  if (html.length <= PREVIEW_LIMIT) return html.length;
  const end = html.lastIndexOf('>\n<', PREVIEW_LIMIT);
  return end > 0 ? end + 2 : PREVIEW_LIMIT;
}

function fileStem(title: string): string {
  const stem = title
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return stem || 'document';
}

/** The text a reader sees in rendered HTML (the plain flavour of a formatted copy). */
function textOf(html: string): string {
  return new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';
}
