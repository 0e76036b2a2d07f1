import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { CopyButton, DownloadButton } from '../../shared/ui/actions';
import { fieldText } from '../../shared/ui/field-text';
import { formatCount } from '../../shared/ui/format';
import { ConverterInput, useTextSource } from '../../shared/ui/ConverterInput';
import { TaskProgress } from '../../shared/ui/TextOrFileInput';
import { TextPane } from '../../shared/ui/TextPane';
import { ToolAbout, type Example } from '../../shared/ui/ToolAbout';
import { setting, useUrlSettings } from '../../shared/ui/url-settings';
import { useConversion } from '../../shared/ui/use-conversion';
import { useInputHistory } from '../../shared/ui/use-input-history';
import type { Tool } from '../types';
import { convertText, WORKER_THRESHOLD, type Direction, type YamlJob } from './yaml-job';

const SETTINGS = {
  indent: setting.choice(['2', '4', 'tab', 'none'] as const, '2'),
  documents: setting.flag(false),
  merge: setting.flag(true),
};

const YAML_EXAMPLES: Example[] = [
  {
    label: 'Anchors and aliases',
    input:
      'defaults: &defaults\n  adapter: postgres\n  host: localhost\n\ndevelopment:\n  database: dev\n  settings: *defaults\n\ntest:\n  database: test\n  settings: *defaults\n',
  },
  {
    label: 'Merge keys (docker-compose)',
    input:
      'x-app: &app\n  image: example/app:1.4\n  restart: always\n  environment:\n    LOG_LEVEL: info\n\nservices:\n  web:\n    <<: *app\n    ports: ["8080:80"]\n  worker:\n    <<: *app\n    restart: "no"\n',
  },
  { label: 'Two documents', input: '# first\nname: web\nreplicas: 2\n---\n# second\nname: worker\nreplicas: 4\n' },
  {
    label: 'Block scalars',
    input: 'literal: |\n  line one\n  line two\nfolded: >\n  these words\n  become one line\nquoted: "tab\\there"\n',
  },
];

const JSON_EXAMPLES: Example[] = [
  {
    label: 'Package',
    input:
      '{\n  "name": "tinkerdesk",\n  "private": true,\n  "scripts": { "start": "node scripts/start.mjs", "test": "jest" },\n  "keywords": ["tools", "yaml", "json"]\n}\n',
  },
  { label: 'Tricky strings', input: '{"on": "yes", "version": "1.10", "empty": "", "multi": "line one\\nline two", "nothing": null}' },
  { label: 'List of documents', input: '[{"kind": "Service", "name": "web"}, {"kind": "Deployment", "name": "web"}]' },
];

const createWorker = () => new Worker(new URL('./yaml.worker.ts', import.meta.url), { type: 'module' });

/** Where a conversion error points, when it says (line and column, 1-based). */
function positionOf(error: Error | undefined): { line: number; column: number } | undefined {
  const fields = error as (Error & { line?: unknown; column?: unknown; details?: Record<string, unknown> }) | undefined;
  const line = fields?.line ?? fields?.details?.line;
  const column = fields?.column ?? fields?.details?.column;
  return typeof line === 'number' && typeof column === 'number' ? { line, column } : undefined;
}

/** Puts the caret at a line and column of the Input field. */
function showInInput(line: number, column: number) {
  const field = document.getElementById('input');
  if (!(field instanceof HTMLTextAreaElement)) return;
  const lines = field.value.split('\n');
  const offset = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0) + column - 1;
  field.focus();
  field.setSelectionRange(offset, Math.min(offset + 1, field.value.length));
}

/** YAML to JSON and JSON to YAML: one page, two directions. */
export function YamlJsonTool({ tool, direction }: { tool: Tool; direction: Direction }) {
  const [settings, update] = useUrlSettings(SETTINGS);
  const source = useTextSource(WORKER_THRESHOLD);
  const { text, setText, file, readError } = source;
  useInputHistory(tool.id, file ? '' : text);
  const toJson = direction === 'yaml-json';
  const from = toJson ? 'YAML' : 'JSON';
  const to = toJson ? 'JSON' : 'YAML';
  const yamlIndent = settings.indent === '4' ? 4 : 2;

  const job = useMemo<YamlJob | null>(
    () =>
      file || text
        ? {
            direction,
            source: file ?? text,
            jsonIndent: settings.indent === 'tab' || settings.indent === 'none' ? settings.indent : yamlIndent,
            yamlIndent,
            documents: settings.documents,
            merge: settings.merge,
          }
        : null,
    [direction, file, text, settings.indent, settings.documents, settings.merge, yamlIndent],
  );
  const large = file !== null || text.length >= WORKER_THRESHOLD;
  const { result, busy, progress, cancel } = useConversion(job, large, convertText, createWorker);
  const converted = job ? result?.value : undefined;
  const failure = job ? result?.error : undefined;
  const output = converted?.text ?? '';
  const field = fieldText(output);
  const at = positionOf(failure);

  const problem = readError || failure?.message;
  const info = [
    converted?.documents !== undefined && converted.documents !== 1
      ? converted.documents === 0
        ? 'No documents in the stream'
        : `${converted.documents} documents, as a JSON array`
      : '',
    output ? `${formatCount(output.length)} characters` : '',
    field.note ?? '',
  ]
    .filter(Boolean)
    .join(' · ');
  const stem = file ? file.name.replace(/\.[^.]*$/, '') || 'data' : 'data';

  return (
    <>
      <div className="tool-settings" role="group" aria-label="Settings">
        <label>
          Indentation
          <select value={settings.indent} onChange={(e) => update({ indent: e.target.value as '2' | '4' | 'tab' | 'none' })}>
            <option value="2">2 spaces</option>
            <option value="4">4 spaces</option>
            {toJson ? (
              <>
                <option value="tab">Tabs</option>
                <option value="none">None (minified)</option>
              </>
            ) : null}
          </select>
        </label>
        {toJson ? (
          <label>
            <input type="checkbox" checked={settings.merge} onChange={(e) => update({ merge: e.target.checked })} />
            Merge keys (<code>&lt;&lt;: *base</code>)
          </label>
        ) : (
          <label>
            <input type="checkbox" checked={settings.documents} onChange={(e) => update({ documents: e.target.checked })} />
            Top-level array as separate documents
          </label>
        )}
      </div>

      <div className="tool-panes">
        <ConverterInput
          source={source}
          what={from}
          problem={problem}
          problemAction={
            at && !file ? (
              <button type="button" className="link-button" onClick={() => showInInput(at.line, at.column)}>
                Show in input
              </button>
            ) : null
          }
        />
        <div className="tool-output">
          <TextPane
            id="output"
            label="Output"
            value={field.shown}
            readOnly
            wrap="off"
            placeholder={`The ${to} appears here`}
            info={info || undefined}
            actions={
              <>
                <CopyButton text={() => output} disabled={!output} />
                <DownloadButton
                  data={() => output}
                  filename={`${stem}.${toJson ? 'json' : 'yaml'}`}
                  type={toJson ? 'application/json' : 'application/yaml'}
                  disabled={!output}
                />
              </>
            }
          />
          <TaskProgress busy={busy} progress={progress} label="Converting" onCancel={cancel} />
        </div>
      </div>

      <ToolAbout examples={toJson ? YAML_EXAMPLES : JSON_EXAMPLES} onExample={setText}>
        {toJson ? (
          <p>
            Reads YAML 1.2 (the current version, as in the YAML test suite, which this converter passes) and writes JSON. Anchors and
            aliases are resolved into copies, with a limit that stops &ldquo;billion laughs&rdquo; alias bombs. A stream of several
            documents separated by <code>---</code> becomes a JSON array with one element per document. In YAML 1.2, <code>yes</code>,{' '}
            <code>no</code>, <code>on</code> and <code>off</code> are plain strings; only <code>true</code> and <code>false</code> are
            booleans. Merge keys (<code>&lt;&lt;: *base</code>, as in docker-compose, GitLab CI and Rails files) copy the keys of the
            aliased mapping in, unless the mapping sets them itself; turn &ldquo;Merge keys&rdquo; off to read <code>&lt;&lt;</code> as an
            ordinary key, as strict YAML 1.2 does. Duplicate keys are errors, and every error gives its line and column.
          </p>
        ) : (
          <p>
            Writes JSON as YAML 1.2: keys keep their order, strings that YAML would read as something else (<code>&quot;true&quot;</code>,{' '}
            <code>&quot;1.10&quot;</code>, <code>&quot;null&quot;</code>, empty strings) are quoted, and so is everything a YAML 1.1 reader
            (PyYAML, SnakeYAML, older tools) would take for something else: <code>&quot;on&quot;: &quot;yes&quot;</code> rather than{' '}
            <code>on: yes</code>, which such a reader turns into <code>True: True</code>, and likewise <code>y</code>, <code>off</code>,{' '}
            <code>0777</code>, <code>1_000</code>, <code>1:20</code>, dates and <code>&lt;&lt;</code>. Long strings stay on one line. A
            top-level array can become a stream of documents, one per element, as Kubernetes manifests are written. Invalid JSON is reported
            with its line and column.
          </p>
        )}
        <p>
          The other way:{' '}
          <Link to={toJson ? '/tools/converters/json/yaml/' : '/tools/converters/yaml/json/'}>
            {to} to {from}
          </Link>
          . Large files are converted in the background; nothing leaves your browser.
        </p>
      </ToolAbout>
    </>
  );
}
