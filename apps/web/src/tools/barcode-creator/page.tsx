import { compareNames } from '../../shared/text-order';
import { EC_LEVELS, ecFamily, isTwoDimensional, OptionsError, parseOptions } from '@tinkerdesk/tools/barcode';
import { SYMBOLOGIES } from '@tinkerdesk/tools/barcode-symbols';
import { useMemo, useState } from 'react';
import { saveFile } from '../../shared/ui/actions';
import { ClearButton } from '../../shared/ui/TextOrFileInput';
import { TextPane } from '../../shared/ui/TextPane';
import { ToolAbout } from '../../shared/ui/ToolAbout';
import { setting, useUrlSettings } from '../../shared/ui/url-settings';
import { useInputHistory } from '../../shared/ui/use-input-history';
import type { ToolPageProps } from '../types';
import { BarcodeResult } from './BarcodeResult';
import type { RenderJob } from './render-job';
import { useBarcode } from './use-barcode';

// bwip-js's QR samples point at a retired URL shortener; ours point here.
const SAMPLES: Record<string, string> = { qrcode: 'https://tinkerdesk.dev', microqrcode: '1234', rectangularmicroqrcode: '1234' };
const BY_ID = new Map(SYMBOLOGIES.map((s) => [s.bcid, { ...s, text: SAMPLES[s.bcid] ?? s.text }]));
const SORTED = [...BY_ID.values()].sort((a, b) => compareNames(a.desc, b.desc));
const COMMON = [
  'qrcode',
  'datamatrix',
  'azteccode',
  'pdf417',
  'code128',
  'ean13',
  'upca',
  'code39',
  'interleaved2of5',
  'databarexpanded',
  'gs1-128',
  'maxicode',
];

const SETTINGS = {
  type: setting.choice(
    SYMBOLOGIES.map((s) => s.bcid),
    'qrcode',
  ),
  scale: setting.integer(4, 1, 20),
  height: setting.integer(15, 3, 100),
  margin: setting.integer(4, 0, 40),
  bar: setting.color('#000000'),
  bg: setting.color('#ffffff'),
  text: setting.choice(['auto', 'on', 'off'] as const, 'auto'),
  ec: setting.text('', 4),
  options: setting.text('', 200),
};

const EXAMPLES = [
  { label: 'A web address (QR)', input: 'https://tinkerdesk.dev/tools/' },
  { label: 'A contact (QR)', input: 'BEGIN:VCARD\nVERSION:3.0\nFN:Ada Lovelace\nEMAIL:ada@example.com\nEND:VCARD' },
  { label: 'A product number', input: '9520123456788' },
];

export default function BarcodeCreatorPage({ tool }: ToolPageProps) {
  const [settings, update] = useUrlSettings(SETTINGS);
  const symbol = BY_ID.get(settings.type)!;
  const [data, setData] = useState<string | null>(null);
  const text = data ?? symbol.text;
  useInputHistory(tool.id, data ?? '');
  const twoD = isTwoDimensional(symbol.bcid);
  const family = ecFamily(symbol.bcid);
  const defaults = useMemo(() => parseOptions(symbol.opts), [symbol.opts]);

  const extra = useMemo((): { value?: Record<string, string | boolean>; error?: string } => {
    try {
      return { value: parseOptions(settings.options) };
    } catch (error) {
      return { error: error instanceof OptionsError ? error.message : String(error) };
    }
  }, [settings.options]);
  const includeText = settings.text === 'auto' ? defaults.includetext === true : settings.text === 'on';
  const ecLevel = family && EC_LEVELS[family].some((l) => l.value === settings.ec) ? settings.ec : undefined;

  const job = useMemo<RenderJob | null>(() => {
    if (!text || !extra.value) return null;
    const { includetext: _ignored, ...rest } = defaults;
    return {
      bcid: symbol.bcid,
      text,
      scale: settings.scale,
      height: twoD ? undefined : settings.height,
      margin: settings.margin,
      barColor: settings.bar,
      backgroundColor: settings.bg,
      includeText,
      ecLevel,
      extra: { ...rest, ...extra.value },
    };
  }, [
    text,
    extra.value,
    defaults,
    symbol.bcid,
    settings.scale,
    twoD,
    settings.height,
    settings.margin,
    settings.bar,
    settings.bg,
    includeText,
    ecLevel,
  ]);
  const { result, error, url, busy } = useBarcode(job);
  const stem = symbol.bcid;

  return (
    <>
      <div className="tool-settings" role="group" aria-label="Settings">
        <label>
          Type
          <select
            value={symbol.bcid}
            onChange={(e) => {
              // A sample stays a sample: switching type shows the new type's sample unless you typed your own.
              if (data === symbol.text) setData(null);
              update({ type: e.target.value, ec: '', options: '' });
            }}
          >
            <optgroup label="Common">
              {COMMON.map((id) => (
                <option key={id} value={id}>
                  {BY_ID.get(id)!.desc}
                </option>
              ))}
            </optgroup>
            <optgroup label={`All ${SYMBOLOGIES.length} types`}>
              {SORTED.map((s) => (
                <option key={s.bcid} value={s.bcid}>
                  {s.desc}
                </option>
              ))}
            </optgroup>
          </select>
        </label>
        <label>
          Module size (px)
          <input
            type="number"
            min={1}
            max={20}
            value={settings.scale}
            onChange={(e) => update({ scale: clamp(e.target.value, 1, 20, 4) })}
          />
        </label>
        {twoD ? null : (
          <label>
            Bar height (mm)
            <input
              type="number"
              min={3}
              max={100}
              value={settings.height}
              onChange={(e) => update({ height: clamp(e.target.value, 3, 100, 15) })}
            />
          </label>
        )}
        <label>
          Margin (modules)
          <input
            type="number"
            min={0}
            max={40}
            value={settings.margin}
            onChange={(e) => update({ margin: clamp(e.target.value, 0, 40, 4) })}
          />
        </label>
        <label>
          Bars
          <input type="color" value={settings.bar} onChange={(e) => update({ bar: e.target.value })} />
        </label>
        <label>
          Background
          <input type="color" value={settings.bg} onChange={(e) => update({ bg: e.target.value })} />
        </label>
        {twoD ? null : (
          <label>
            <input type="checkbox" checked={includeText} onChange={(e) => update({ text: e.target.checked ? 'on' : 'off' })} />
            Human-readable text
          </label>
        )}
        {family ? (
          <label>
            Error correction
            <select value={ecLevel ?? ''} onChange={(e) => update({ ec: e.target.value })}>
              <option value="">Default</option>
              {EC_LEVELS[family].map((l) => (
                <option key={l.value} value={l.value}>
                  {l.label}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <label className="wide-setting">
          {/* Named by this text alone: the hint below describes it (its words are not part of the name). */}
          <span id="barcode-options-label">More options (for experts)</span>
          <input
            type="text"
            value={settings.options}
            placeholder="none"
            aria-invalid={extra.error ? true : undefined}
            aria-labelledby="barcode-options-label"
            aria-describedby="barcode-options-hint"
            onChange={(e) => update({ options: e.target.value })}
          />
          <span className="muted setting-hint" id="barcode-options-hint">
            Settings of the barcode engine (BWIPP), written as name=value and separated by spaces, e.g. version=10.
            {symbol.opts ? ` This barcode type already uses ${symbol.opts}.` : ''}
          </span>
        </label>
      </div>
      {extra.error ? (
        <p className="field-error" role="alert">
          {extra.error}
        </p>
      ) : null}

      <div className="tool-panes">
        <TextPane
          id="input"
          label="Input"
          value={text}
          onChange={setData}
          rows={6}
          placeholder={`Data to encode, e.g. ${symbol.text}`}
          error={text ? error : undefined}
          info={data === null ? `Sample data for ${symbol.desc}: type your own` : `${[...text].length} characters`}
          actions={<ClearButton onClear={() => setData('')} disabled={!text} />}
        />
        <BarcodeResult
          result={result}
          url={error ? undefined : url}
          busy={busy}
          alt={`${symbol.desc} barcode of ${text.length > 60 ? `${text.slice(0, 60)}…` : text}`}
          onPng={() => result && saveFile(result.png, `${stem}.png`)}
          onSvg={() => result && saveFile(result.svg, `${stem}.svg`, 'image/svg+xml')}
          empty={text ? undefined : 'Type the data to encode.'}
        />
      </div>

      <ToolAbout
        examples={EXAMPLES}
        onExample={(input) => {
          // Product numbers are EAN-13; everything else is shown as a QR Code.
          update({ type: /^\d{13}$/.test(input) ? 'ean13' : 'qrcode', ec: '', options: '' });
          setData(input);
        }}
      >
        <p>
          Makes any of the {SYMBOLOGIES.length} barcode types of Barcode Writer in Pure PostScript (through bwip-js): QR Code, Data Matrix,
          Aztec, PDF417, MaxiCode, Code 128, EAN and UPC, ITF-14, Code 39, GS1 DataBar and GS1 composites, postal codes and more. Choose the
          type and type the data: the preview follows as you type, and says plainly when the data cannot be encoded (letters in an EAN-13, a
          wrong check digit, too much data for the size).
        </p>
        <p>
          The margin is the quiet zone scanners need around a code (4 modules for QR Code, about 10 for linear barcodes). Dark bars on a
          light background scan best. Download a PNG at the chosen module size, or an SVG that stays sharp at any size for print. More
          options takes any BWIPP option (for example <code>version=10</code> or <code>includecheck</code>). Everything runs in your
          browser.
        </p>
      </ToolAbout>
    </>
  );
}

function clamp(raw: string, min: number, max: number, fallback: number): number {
  const n = Math.trunc(Number(raw));
  return Number.isFinite(n) && raw !== '' ? Math.min(max, Math.max(min, n)) : fallback;
}
