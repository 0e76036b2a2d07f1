import { formatMinutes, READING_WPM, SPEAKING_WPM, type TextStats } from '@tinkerdesk/tools/word-count';
import { useMemo } from 'react';
import { CopyButton, DownloadButton } from '../../shared/ui/actions';
import { ConverterInput, useTextSource } from '../../shared/ui/ConverterInput';
import { formatCount } from '../../shared/ui/format';
import { TaskProgress } from '../../shared/ui/TextOrFileInput';
import { TextPane } from '../../shared/ui/TextPane';
import { ToolAbout } from '../../shared/ui/ToolAbout';
import { setting, useUrlSettings } from '../../shared/ui/url-settings';
import { useConversion } from '../../shared/ui/use-conversion';
import { useInputHistory } from '../../shared/ui/use-input-history';
import type { ToolPageProps } from '../types';
import { countOnPage, WORKER_THRESHOLD, type CountJob } from './count-job';

const LANGUAGES = [
  ['auto', 'Your browser’s language'],
  ['en', 'English'],
  ['de', 'German'],
  ['fr', 'French'],
  ['es', 'Spanish'],
  ['zh', 'Chinese'],
  ['ja', 'Japanese'],
  ['th', 'Thai'],
  ['ko', 'Korean'],
  ['ar', 'Arabic'],
  ['ru', 'Russian'],
] as const;

const SETTINGS = {
  lang: setting.choice(
    LANGUAGES.map(([code]) => code),
    'auto',
  ),
  common: setting.flag(true),
  top: setting.integer(10, 1, 100),
};

const EXAMPLES = [
  {
    label: 'English prose',
    input:
      'It was the best of times, it was the worst of times, it was the age of wisdom, it was the age of foolishness.\n\nIt was the epoch of belief, it was the epoch of incredulity.',
  },
  { label: 'Chinese', input: '我喜欢学习中文。今天天气很好，我们去公园散步吧。' },
  { label: 'Emoji and accents', input: 'Café crème 👋🏽 🇨🇭! Zoë naïvely said “hello”.' },
];

const createWorker = () => new Worker(new URL('./count.worker.ts', import.meta.url), { type: 'module' });

function report(stats: TextStats): string {
  return [
    `Words: ${stats.words}`,
    `Characters: ${stats.characters}`,
    `Characters without spaces: ${stats.charactersWithoutSpaces}`,
    `Sentences: ${stats.sentences}`,
    `Paragraphs: ${stats.paragraphs}`,
    `Lines: ${stats.lines}`,
    `Reading time: ${formatMinutes(stats.readingMinutes)}`,
    `Speaking time: ${formatMinutes(stats.speakingMinutes)}`,
    stats.topWords.length ? `Most frequent: ${stats.topWords.map((w) => `${w.word} (${w.count})`).join(', ')}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

export default function WordCountPage({ tool }: ToolPageProps) {
  const [settings, update] = useUrlSettings(SETTINGS);
  const source = useTextSource(WORKER_THRESHOLD);
  const { text, file, readError } = source;
  useInputHistory(tool.id, file ? '' : text);
  const { lang, common, top } = settings;

  const job = useMemo<CountJob>(
    () => ({ source: file ?? text, locale: lang === 'auto' ? undefined : lang, ignoreCommon: common, top }),
    [file, text, lang, common, top],
  );
  const large = file !== null || text.length >= WORKER_THRESHOLD;
  const { result, busy, progress, cancel } = useConversion(job, large, countOnPage, createWorker);
  const stats = result?.value;
  const output = stats && (file || text) ? report(stats) : '';

  const figures: Array<[string, string]> = stats
    ? [
        ['Words', formatCount(stats.words)],
        ['Characters', formatCount(stats.characters)],
        ['Without spaces', formatCount(stats.charactersWithoutSpaces)],
        ['Sentences', formatCount(stats.sentences)],
        ['Paragraphs', formatCount(stats.paragraphs)],
        ['Lines', formatCount(stats.lines)],
        ['Reading time', formatMinutes(stats.readingMinutes)],
        ['Speaking time', formatMinutes(stats.speakingMinutes)],
      ]
    : [];

  return (
    <>
      <div className="tool-settings" role="group" aria-label="Settings">
        <label>
          Language
          <select value={lang} onChange={(e) => update({ lang: e.target.value as (typeof LANGUAGES)[number][0] })}>
            {LANGUAGES.map(([code, name]) => (
              <option key={code} value={code}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label>
          <input type="checkbox" checked={common} onChange={(e) => update({ common: e.target.checked })} />
          Leave common English words out of the top list
        </label>
      </div>

      {/* On a phone the text box comes first, then the figures, then the output (kit.css .word-count-body). */}
      <div className="word-count-body">
        <dl className="stat-grid" aria-label="Statistics">
          {figures.map(([name, value]) => (
            <div key={name} className="stat">
              <dt>{name}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>

        <div className="tool-panes">
          <div className="tool-input">
            <ConverterInput
              source={source}
              what="text"
              problem={readError || result?.error?.message}
              fileDetail="counted in the background"
            />
            <TaskProgress busy={busy} progress={progress} label="Counting" onCancel={cancel} />
          </div>
          <div className="tool-output">
            <TextPane
              id="output"
              label="Output"
              value={output}
              readOnly
              rows={10}
              placeholder="The counts appear here as you type"
              actions={
                <>
                  <CopyButton text={output} disabled={!output} />
                  <DownloadButton data={`${output}\n`} filename="word-count.txt" disabled={!output} />
                </>
              }
            />
            {stats && stats.topWords.length > 0 ? (
              <table className="data-table">
                <caption>Most frequent words</caption>
                <thead>
                  <tr>
                    <th scope="col">Word</th>
                    <th scope="col">Times</th>
                  </tr>
                </thead>
                <tbody>
                  {stats.topWords.map((w) => (
                    <tr key={w.word}>
                      <th scope="row">{w.word}</th>
                      <td className="numeric">{formatCount(w.count)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
            <label className="inline-setting">
              Show the top
              <select value={top} onChange={(e) => update({ top: Number(e.target.value) })}>
                {[5, 10, 20, 50, 100].map((n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
              </select>
              words
            </label>
          </div>
        </div>
      </div>

      <ToolAbout examples={EXAMPLES} onExample={source.setText}>
        <p>
          Counts as you type. Words are found with your browser&apos;s Unicode word breaker (Intl.Segmenter), so languages written without
          spaces between words, such as Chinese, Japanese and Thai, are counted by their words, not their spaces; choose the language for
          the best result. Characters are counted as people see them: an emoji with a skin tone, a flag or a letter with a combining accent
          is one character.
        </p>
        <p>
          Reading time assumes {READING_WPM} words a minute (the average silent reading speed of adults); speaking time {SPEAKING_WPM} words
          a minute. Paragraphs are blocks separated by a blank line. Large texts and files are counted in the background; nothing leaves
          your browser.
        </p>
      </ToolAbout>
    </>
  );
}
