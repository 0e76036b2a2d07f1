import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';

/**
 * Tool settings (never content) live in the URL query, so a link reopens the same setup. A setting
 * at its default is left out of the URL; a value that does not parse falls back to the default.
 */
export interface Setting<T> {
  default: T;
  parse(raw: string): T | undefined;
  format(value: T): string;
}

export const setting = {
  choice<T extends string>(values: readonly T[], fallback: T): Setting<T> {
    return { default: fallback, parse: (raw) => ((values as readonly string[]).includes(raw) ? (raw as T) : undefined), format: (v) => v };
  },
  flag(fallback: boolean): Setting<boolean> {
    return {
      default: fallback,
      parse: (raw) => (raw === '1' || raw === 'true' ? true : raw === '0' || raw === 'false' ? false : undefined),
      format: (v) => (v ? '1' : '0'),
    };
  },
  integer(fallback: number, min: number, max: number): Setting<number> {
    return {
      default: fallback,
      parse: (raw) => {
        const n = Number(raw);
        return /^-?\d+$/.test(raw) && n >= min && n <= max ? n : undefined;
      },
      format: (v) => String(v),
    };
  },
  /** A colour as #rrggbb (lowercase). */
  color(fallback: string): Setting<string> {
    return { default: fallback, parse: (raw) => (/^#[0-9a-f]{6}$/i.test(raw) ? raw.toLowerCase() : undefined), format: (v) => v };
  },
  text(fallback: string, maxLength = 200): Setting<string> {
    return { default: fallback, parse: (raw) => (raw.length <= maxLength ? raw : undefined), format: (v) => v };
  },
};

type Values<S> = { [K in keyof S]: S[K] extends Setting<infer T> ? T : never };

export function readSettings<S extends Record<string, Setting<unknown>>>(schema: S, params: URLSearchParams): Values<S> {
  const values: Record<string, unknown> = {};
  for (const [key, s] of Object.entries(schema)) {
    const raw = params.get(key);
    values[key] = raw === null ? s.default : (s.parse(raw) ?? s.default);
  }
  return values as Values<S>;
}

/** [settings, update]: update({ key: value }) rewrites the query in place (no new history entry). */
export function useUrlSettings<S extends Record<string, Setting<unknown>>>(schema: S): [Values<S>, (patch: Partial<Values<S>>) => void] {
  const [params, setParams] = useSearchParams();
  const values = useMemo(() => readSettings(schema, params), [schema, params]);
  const update = useCallback(
    (patch: Partial<Values<S>>) => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [key, value] of Object.entries(patch)) {
            const s = schema[key];
            if (!s) continue;
            if (value === s.default) next.delete(key);
            else next.set(key, s.format(value));
          }
          return next;
        },
        // flushSync: the new value shows at once; a controlled checkbox or select would otherwise flick back
        // until the navigation (a transition) lands.
        { replace: true, preventScrollReset: true, flushSync: true },
      );
    },
    [schema, setParams],
  );
  return [values, update];
}
