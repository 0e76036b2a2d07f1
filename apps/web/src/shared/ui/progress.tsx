/** A progress bar for long work (value between 0 and 1), with its percentage as text. */
export function ProgressBar({ value, label }: { value: number; label: string }) {
  const percent = Math.round(Math.min(1, Math.max(0, value)) * 100);
  return (
    <div className="progress" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
      <div className="progress-bar" style={{ width: `${percent}%` }} />
      <span className="progress-text">
        {label}: {percent}%
      </span>
    </div>
  );
}
