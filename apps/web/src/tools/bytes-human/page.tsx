import { allUnits, BytesError, formatBytes, parseBytes, type Unit } from '@tinkerdesk/tools/bytes';
import { useMemo, useState } from 'react';
import { CopyButton } from '../../shared/ui/actions';
import { ClearButton } from '../../shared/ui/TextOrFileInput';
import { TextPane } from '../../shared/ui/TextPane';
import { ToolAbout } from '../../shared/ui/ToolAbout';
import { setting, useUrlSettings } from '../../shared/ui/url-settings';
import { useInputHistory } from '../../shared/ui/use-input-history';
import type { ToolPageProps } from '../types';

const SETTINGS = { decimals: setting.integer(2, 0, 12) };

const EXAMPLES = [
  { label: 'A DVD (bytes)', input: '4700000000' },
  { label: '1.5 GB', input: '1.5 GB' },
  { label: '16 GiB of memory', input: '16 GiB' },
  { label: '2^64 − 1 bytes', input: '18446744073709551615' },
];

interface Conversion {
  bytes: bigint;
  /** The input was a count of bytes (so the answer is the human-readable text), not a size with a unit. */
  fromBytes: boolean;
  unit: Unit;
  rounded: boolean;
}

function UnitTable({ caption, rows }: { caption: string; rows: Array<{ unit: Unit; value: string }> }) {
  return (
    <table className="data-table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Unit</th>
          <th scope="col">Size</th>
          <th scope="col">
            <span className="visually-hidden">Copy</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map(({ unit, value }) => (
          <tr key={unit.symbol}>
            <th scope="row">
              {unit.symbol} <span className="muted">({unit.name})</span>
            </th>
            <td className="numeric">{value}</td>
            <td>
              <CopyButton text={`${value} ${unit.symbol}`} label={`Copy ${unit.symbol}`} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export default function BytesHumanPage({ tool }: ToolPageProps) {
  const [settings, update] = useUrlSettings(SETTINGS);
  const [input, setInput] = useState('');
  useInputHistory(tool.id, input);

  const parsed = useMemo((): { value?: Conversion; error?: string } => {
    if (!input.trim()) return {};
    try {
      const { bytes, unit, rounded } = parseBytes(input);
      return { value: { bytes, unit, rounded, fromBytes: unit.factor === 1n } };
    } catch (error) {
      return { error: error instanceof BytesError ? error.message : String(error) };
    }
  }, [input]);
  const value = parsed.value;
  const digits = settings.decimals;
  const output = value
    ? value.fromBytes
      ? `${formatBytes(value.bytes, 'decimal', digits)}\n${formatBytes(value.bytes, 'binary', digits)}`
      : `${value.bytes} ${value.bytes === 1n ? 'byte' : 'bytes'}`
    : '';
  const rows = value ? allUnits(value.bytes, digits) : [];

  return (
    <>
      <div className="tool-settings" role="group" aria-label="Settings">
        <label>
          Decimals
          <input
            type="number"
            min={0}
            max={12}
            value={digits}
            onChange={(e) => {
              const n = Number(e.target.value);
              if (Number.isInteger(n) && n >= 0 && n <= 12) update({ decimals: n });
            }}
          />
        </label>
      </div>

      <div className="tool-panes">
        <TextPane
          id="input"
          label="Input"
          value={input}
          onChange={setInput}
          rows={3}
          placeholder="A number of bytes (1500000000) or a size (1.5 GB, 2 MiB)"
          error={parsed.error}
          info={value ? `${value.bytes.toLocaleString('en')} bytes${value.rounded ? ' (rounded to whole bytes)' : ''}` : undefined}
          actions={<ClearButton onClear={() => setInput('')} disabled={!input} />}
        />
        <TextPane
          id="output"
          label="Output"
          value={output}
          readOnly
          rows={3}
          placeholder="The size in the other form appears here"
          info={
            value
              ? value.fromBytes
                ? 'Decimal (SI, powers of 1000), then binary (IEC, powers of 1024)'
                : `From ${value.unit.name}`
              : undefined
          }
          actions={<CopyButton text={output} disabled={!output} />}
        />
      </div>

      {value ? (
        <div className="unit-tables">
          <UnitTable caption="Decimal units (SI): 1 kB = 1000 bytes" rows={rows.slice(0, 6)} />
          <UnitTable caption="Binary units (IEC): 1 KiB = 1024 bytes" rows={rows.slice(6)} />
        </div>
      ) : null}

      <ToolAbout examples={EXAMPLES} onExample={setInput}>
        <p>
          Type a number of bytes to see it as kB, MB, GB … and KiB, MiB, GiB …; type a size with a unit (<code>1.5 GB</code>,{' '}
          <code>2 MiB</code>, <code>3 gigabytes</code>) to get the exact number of bytes. Decimal units (kB, MB, GB, TB, PB, EB) count in
          powers of 1000, as disk makers and networks do; binary units (KiB, MiB, GiB, TiB, PiB, EiB) count in powers of 1024, as memory and
          many operating systems do. That is why a &ldquo;500 GB&rdquo; disk shows as 465.66 GiB.
        </p>
        <p>
          The arithmetic is exact for integers of any size (no floating-point rounding even beyond exabytes); results are rounded half up to
          the number of decimals you choose. &ldquo;KB&rdquo; is read as the decimal kilobyte, as the SI symbol kB.
        </p>
      </ToolAbout>
    </>
  );
}
