/**
 * The converter's server data through TanStack Query: the user's recent conversions (reloaded when a
 * job starts, finishes or is deleted), a result's download, and deleting (or cancelling) a job.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ConversionJobView } from '@tinkerdesk/contracts/web';
import { useCallback } from 'react';
import { reload } from '../../shared/query';
import { useSession } from '../../shared/session/session';
import { saveFile } from '../../shared/ui/actions';
import { deleteJob, downloadResult, getFormats, listJobs } from './api';

export const conversionKeys = {
  all: ['conversions'] as const,
  recent: () => [...conversionKeys.all, 'recent'] as const,
  formats: () => [...conversionKeys.all, 'formats'] as const,
};

/** The formats the server's workers can convert now, by id (undefined until known: the page then offers every format). */
export function useAvailableFormats() {
  const { token } = useSession();
  const query = useQuery({ queryKey: conversionKeys.formats(), queryFn: getFormats, enabled: Boolean(token), staleTime: 30_000 });
  return query.data ? new Map(query.data.formats.map((f) => [f.id, f])) : undefined;
}

const RECENT = 10;

export function useRecentJobs() {
  const { token } = useSession();
  return useQuery({
    queryKey: conversionKeys.recent(),
    queryFn: async () => {
      const list = await listJobs(0, RECENT);
      return { jobs: list.jobs, total: list.total };
    },
    enabled: Boolean(token),
  });
}

/** Loads the recent conversions again, without waiting. */
export function useReloadRecent(): () => void {
  const client = useQueryClient();
  return useCallback(() => void reload(client, conversionKeys.recent()), [client]);
}

/** The converted file of a completed job, typed as it was converted. */
export async function resultOf(job: ConversionJobView): Promise<Blob> {
  const blob = await downloadResult(job.id);
  return job.output && blob.type !== job.output.mediaType ? new Blob([blob], { type: job.output.mediaType }) : blob;
}

export const useDownloadJob = () =>
  useMutation({
    mutationFn: async (job: ConversionJobView) => {
      if (!job.output) return;
      saveFile(await downloadResult(job.id), job.output.filename, job.output.mediaType);
    },
  });

export function useDeleteJob() {
  const reloadRecent = useReloadRecent();
  return useMutation({ mutationFn: (job: ConversionJobView) => deleteJob(job.id), onSuccess: reloadRecent });
}
