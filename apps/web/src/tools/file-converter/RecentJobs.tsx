import type { ConversionJobView } from '@tinkerdesk/contracts/web';
import { SaveToFilesButton } from '../../shared/ui/SaveToFilesButton';
import { resultOf } from './queries';

/** "Your recent conversions": the last jobs with their state, download, and delete (or cancel). */
export function RecentJobs({
  recent,
  error,
  onDownload,
  onRemove,
}: {
  recent: { jobs: ConversionJobView[]; total: number } | undefined;
  error: string;
  onDownload: (job: ConversionJobView) => void;
  onRemove: (job: ConversionJobView) => void;
}) {
  return (
    <section aria-labelledby="recent-jobs" className="recent-jobs">
      <h2 id="recent-jobs">Your recent conversions</h2>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      {recent === undefined ? (
        <p role="status">Loading…</p>
      ) : recent.jobs.length === 0 ? (
        <p className="empty-state">No conversions yet. Results are kept for 24 hours.</p>
      ) : (
        <table className="jobs-table">
          <thead>
            <tr>
              <th scope="col">File</th>
              <th scope="col">To</th>
              <th scope="col">State</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {recent.jobs.map((job) => (
              <tr key={job.id}>
                <td className="job-name">{job.source.kind === 'upload' ? job.source.filename : job.source.url}</td>
                <td>{job.to.toUpperCase()}</td>
                <td>
                  {job.state}
                  {job.state === 'active' || job.state === 'queued' ? ` (${job.progress}%)` : ''}
                  {job.error ? <span className="job-error">: {job.error}</span> : null}
                </td>
                <td className="job-actions">
                  {job.state === 'completed' ? (
                    <>
                      <button type="button" className="button button-small" onClick={() => onDownload(job)}>
                        Download
                      </button>
                      {job.output ? <SaveToFilesButton data={() => resultOf(job)} filename={job.output.filename} /> : null}
                    </>
                  ) : null}
                  <button type="button" className="button button-small button-ghost" onClick={() => onRemove(job)}>
                    {job.state === 'queued' || job.state === 'active' ? 'Cancel' : 'Delete'}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
