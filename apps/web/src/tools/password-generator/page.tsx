import {
  entropyBits,
  generatePassword,
  LOOK_ALIKES,
  MAX_COUNT,
  MAX_LENGTH,
  MIN_LENGTH,
  PasswordError,
  wholeNumberProblem,
  type CharacterSet,
} from '@tinkerdesk/tools/password';
import { useMemo, useState } from 'react';
import { CopyButton, DownloadButton } from '../../shared/ui/actions';
import { TextPane } from '../../shared/ui/TextPane';
import { ToolAbout } from '../../shared/ui/ToolAbout';
import { setting, useUrlSettings } from '../../shared/ui/url-settings';
import type { ToolPageProps } from '../types';

const SETTINGS = {
  length: setting.integer(20, MIN_LENGTH, MAX_LENGTH),
  lower: setting.flag(true),
  upper: setting.flag(true),
  digits: setting.flag(true),
  symbols: setting.flag(true),
  lookalikes: setting.flag(false),
  each: setting.flag(true),
  count: setting.integer(1, 1, MAX_COUNT),
};

const SETS: Array<{ key: CharacterSet; label: string }> = [
  { key: 'lower', label: 'Lowercase (a–z)' },
  { key: 'upper', label: 'Uppercase (A–Z)' },
  { key: 'digits', label: 'Digits (0–9)' },
  { key: 'symbols', label: 'Symbols (!#$%…)' },
];

function strength(bits: number): string {
  if (bits < 40) return 'weak';
  if (bits < 64) return 'fair';
  if (bits < 100) return 'strong';
  return 'very strong';
}

export default function PasswordGeneratorPage(_props: ToolPageProps) {
  const [settings, update] = useUrlSettings(SETTINGS);
  const [round, setRound] = useState(0);
  // What is typed in the two number fields while it differs from the setting (null: shows the setting).
  const [lengthText, setLengthText] = useState<string | null>(null);
  const [countText, setCountText] = useState<string | null>(null);
  const sets = SETS.filter((s) => settings[s.key]).map((s) => s.key);
  const setsKey = sets.join(',');
  const { length, lookalikes, each, count } = settings;

  const result = useMemo((): { passwords?: string[]; error?: string; bits?: number } => {
    const options = { length, sets: setsKey ? (setsKey.split(',') as CharacterSet[]) : [], excludeLookAlikes: lookalikes, eachSet: each };
    try {
      const passwords = Array.from({ length: count }, () => generatePassword(options));
      return { passwords, bits: entropyBits(options) };
    } catch (error) {
      return { error: error instanceof PasswordError ? error.message : String(error) };
    }
    // round: a new batch on request.
  }, [length, setsKey, lookalikes, each, count, round]); // eslint-disable-line react-hooks/exhaustive-deps
  const lengthError = lengthText === null ? undefined : wholeNumberProblem(lengthText, MIN_LENGTH, MAX_LENGTH, 'length');
  const countError = countText === null ? undefined : wholeNumberProblem(countText, 1, MAX_COUNT, 'number of passwords');
  // Passwords made for other settings than those on screen are taken away, not left to be copied by mistake.
  const stale = Boolean(lengthError || countError);
  const output = stale ? '' : (result.passwords?.join('\n') ?? '');

  return (
    <>
      <div className="tool-settings" role="group" aria-label="Settings">
        <label>
          Length
          <input
            type="number"
            min={MIN_LENGTH}
            max={MAX_LENGTH}
            value={lengthText ?? length}
            aria-invalid={lengthError ? true : undefined}
            aria-describedby={lengthError ? 'length-error' : undefined}
            onChange={(e) => {
              setLengthText(e.target.value);
              if (!wholeNumberProblem(e.target.value, MIN_LENGTH, MAX_LENGTH, 'length')) update({ length: Number(e.target.value) });
            }}
            onBlur={() => {
              if (!lengthError) setLengthText(null);
            }}
          />
        </label>
        <label>
          How many
          <input
            type="number"
            min={1}
            max={MAX_COUNT}
            value={countText ?? count}
            aria-invalid={countError ? true : undefined}
            aria-describedby={countError ? 'count-error' : undefined}
            onChange={(e) => {
              setCountText(e.target.value);
              if (!wholeNumberProblem(e.target.value, 1, MAX_COUNT, 'number of passwords')) update({ count: Number(e.target.value) });
            }}
            onBlur={() => {
              if (!countError) setCountText(null);
            }}
          />
        </label>
        {SETS.map((s) => (
          <label key={s.key}>
            <input type="checkbox" checked={settings[s.key]} onChange={(e) => update({ [s.key]: e.target.checked })} />
            {s.label}
          </label>
        ))}
        <label>
          <input type="checkbox" checked={lookalikes} onChange={(e) => update({ lookalikes: e.target.checked })} />
          Exclude look-alikes ({LOOK_ALIKES.split('').join(' ')})
        </label>
        <label>
          <input type="checkbox" checked={each} onChange={(e) => update({ each: e.target.checked })} />
          At least one of each set
        </label>
      </div>
      {lengthError ? (
        <p className="field-error" id="length-error" role="alert">
          {lengthError}
        </p>
      ) : null}
      {countError ? (
        <p className="field-error" id="count-error" role="alert">
          {countError}
        </p>
      ) : null}

      <div className="tool-output">
        <TextPane
          id="output"
          label="Output"
          value={output}
          readOnly
          rows={Math.min(12, Math.max(3, count))}
          placeholder={stale ? 'Fix the settings above' : undefined}
          wrap="off"
          error={result.error}
          info={
            !stale && result.bits !== undefined ? (
              <>
                Entropy: <strong>{Math.floor(result.bits)} bits</strong> per password ({strength(result.bits)})
              </>
            ) : undefined
          }
          actions={
            <>
              <button type="button" className="button button-small button-primary" disabled={stale} onClick={() => setRound((r) => r + 1)}>
                Generate
              </button>
              <CopyButton text={output} label={count > 1 ? 'Copy all' : 'Copy'} disabled={!output} />
              <DownloadButton data={output + '\n'} filename="passwords.txt" disabled={!output} />
            </>
          }
        />
      </div>

      <ToolAbout>
        <p>
          Passwords are made in your browser from the operating system&apos;s cryptographic random source (Web Crypto&apos;s{' '}
          <code>getRandomValues</code>), never sent anywhere and never stored. Each character is drawn uniformly: random numbers that would
          make some characters more likely than others (modulo bias) are thrown away and drawn again. With &ldquo;at least one of each
          set&rdquo;, a password missing a chosen set is discarded as a whole, so every allowed password stays equally likely.
        </p>
        <p>
          Entropy is the number of bits of randomness: log₂ of the number of passwords these settings can make. 64 bits resists online
          guessing by far; 100 bits or more is strong against offline attacks on a leaked hash. Length adds more than symbols do.
        </p>
      </ToolAbout>
    </>
  );
}
