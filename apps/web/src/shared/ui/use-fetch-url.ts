/** "Load from URL" as a TanStack Query mutation: the server fetches the URL, the tool gets a file. */
import { useMutation } from '@tanstack/react-query';
import type { FetchedContentView } from '@tinkerdesk/contracts/web';
import { fetchUrlContent } from './api';

function fileOf(content: FetchedContentView): File {
  const binary = atob(content.content);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new File([bytes], content.filename || 'download', { type: content.contentType.split(';')[0] ?? '' });
}

export const useFetchUrl = () =>
  useMutation({ mutationFn: async ({ guid, url }: { guid: string; url: string }) => fileOf(await fetchUrlContent(guid, url)) });
