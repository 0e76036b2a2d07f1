import { generateUuids, inspectUuid, MAX_COUNT, UuidError, type UuidInfo } from '@tinkerdesk/tools/guid';
import { useMemo, useState } from 'react';
import { CopyButton, DownloadButton } from '../../shared/ui/actions';
import { ClearButton } from '../../shared/ui/TextOrFileInput';
import { TextPane } from '../../shared/ui/TextPane';
import { ToolAbout } from '../../shared/ui/ToolAbout';
import { setting, useUrlSettings } from '../../shared/ui/url-settings';
import type { ToolPageProps } from '../types';

const SETTINGS = {
  version: setting.choice(['v4', 'v7'] as const, 'v4'),
  count: setting.integer(1, 1, MAX_COUNT),
  upper: setting.flag(false),
  braces: setting.flag(false),
  hyphens: setting.flag(true),
};

function describe(info: UuidInfo): string {
  if (info.nil) return 'The nil UUID (all zeros)';
  if (info.max) return 'The max UUID (all ones)';
  const kind =
    {
      1: 'time-based',
      3: 'name-based (MD5)',
      4: 'random',
      5: 'name-based (SHA-1)',
      6: 'reordered time-based',
      7: 'Unix-time-ordered',
      8: 'custom',
    }[info.version] ?? 'unknown';
  const time = info.time
    ? `, created ${info.time
        .toISOString()
        .replace('T', ' ')
        .replace('.000Z', ' UTC')
        .replace(/\.(\d{3})Z$/, '.$1 UTC')}`
    : '';
  return `Valid UUID: version ${info.version} (${kind}), variant ${info.variant}${time}`;
}

export default function GuidGeneratorPage(_props: ToolPageProps) {
  const [settings, update] = useUrlSettings(SETTINGS);
  const [round, setRound] = useState(0);
  const [check, setCheck] = useState('');
  const { version, count, upper, braces, hyphens } = settings;

  const output = useMemo(
    () => generateUuids(count, version, { upper, braces, hyphens }).join('\n'),
    // round: a new batch on request.
    [count, version, upper, braces, hyphens, round], // eslint-disable-line react-hooks/exhaustive-deps
  );
  const checked = useMemo((): { info?: string; error?: string } => {
    if (!check.trim()) return {};
    try {
      return { info: describe(inspectUuid(check)) };
    } catch (error) {
      return { error: error instanceof UuidError ? error.message : String(error) };
    }
  }, [check]);

  return (
    <>
      <div className="tool-settings" role="group" aria-label="Settings">
        <label>
          Version
          <select value={version} onChange={(e) => update({ version: e.target.value as 'v4' | 'v7' })}>
            <option value="v4">v4 (random)</option>
            <option value="v7">v7 (time-ordered)</option>
          </select>
        </label>
        <label>
          How many
          <input
            type="number"
            min={1}
            max={MAX_COUNT}
            value={count}
            onChange={(e) => update({ count: Math.min(MAX_COUNT, Math.max(1, Math.trunc(Number(e.target.value)) || 1)) })}
          />
        </label>
        <label>
          <input type="checkbox" checked={upper} onChange={(e) => update({ upper: e.target.checked })} />
          Uppercase
        </label>
        <label>
          <input type="checkbox" checked={braces} onChange={(e) => update({ braces: e.target.checked })} />
          Braces {'{ }'}
        </label>
        <label>
          <input type="checkbox" checked={hyphens} onChange={(e) => update({ hyphens: e.target.checked })} />
          Hyphens
        </label>
      </div>

      <div className="tool-panes">
        <TextPane
          id="output"
          label="Output"
          value={output}
          readOnly
          wrap="off"
          rows={Math.min(12, Math.max(3, count))}
          info={`${count.toLocaleString('en')} UUID${count === 1 ? '' : 's'} ${version}`}
          actions={
            <>
              <button type="button" className="button button-small button-primary" onClick={() => setRound((r) => r + 1)}>
                Generate
              </button>
              <CopyButton text={output} label={count > 1 ? 'Copy all' : 'Copy'} />
              <DownloadButton data={`${output}\n`} filename={`uuids-${version}.txt`} />
            </>
          }
        />
        <TextPane
          id="input"
          label="Input"
          value={check}
          onChange={setCheck}
          rows={3}
          placeholder="Paste a UUID to check it"
          error={checked.error}
          info={checked.info ?? 'Any style: hyphens or not, braces, urn:uuid:, any case'}
          actions={<ClearButton onClear={() => setCheck('')} disabled={!check} />}
        />
      </div>

      <ToolAbout>
        <p>
          A UUID (also called GUID) is a 128-bit identifier. Version 4 is 122 random bits from your browser&apos;s cryptographic random
          source; version 7 starts with the Unix time in milliseconds, so new IDs sort after older ones, which keeps database indexes
          compact. Within one batch, v7 IDs strictly increase even when many are made in the same millisecond.
        </p>
        <p>
          Paste any UUID in the Input field to check it: it tells the version, the variant, and for versions 1, 6 and 7 when it was made.
          Everything happens in your browser (RFC 9562).
        </p>
      </ToolAbout>
    </>
  );
}
