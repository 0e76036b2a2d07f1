/** @jest-environment ./apps/web/test/jsdom-environment.mjs */
/**
 * The converter's state machine as a signed-in user goes through it: a file chosen is ready with its
 * target; Convert uploads it (the upload's progress shown), then follows the job (its progress shown)
 * until it is done (the result named, to download) or failed (the job's error shown). Fetch is faked
 * at the boundary and so is XMLHttpRequest (the upload, for its progress); everything above is real
 * but the explanation under the tool.
 */
import { beforeAll, beforeEach, expect, jest, test } from '@jest/globals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentType, ReactNode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { formatsWithEngines, TARGET_FORMATS, type ConversionEngine } from '@tinkerdesk/contracts/web';
import { installGateway, json, profileAnswer } from '../../shared/gateway.fake';
import type { ToolPageProps } from '../types';
import { meta } from './meta';

const POLL_WAIT = { timeout: 4000 };

/** The job on the server, as the test moves it along. */
let job: Record<string, unknown>;
const uploads: Array<{ url: string; authorization: string | undefined; fields: Record<string, string> }> = [];
/** Lets the upload finish (it stays at its first progress until then). */
let finishUpload: () => void = () => undefined;

function jobView(change: Record<string, unknown>) {
  return {
    id: 'job-1',
    state: 'queued',
    progress: 0,
    from: 'docx',
    to: 'pdf',
    source: { kind: 'upload', filename: 'report.docx', size: 2048 },
    options: {},
    created: '2026-11-25T10:00:00.000Z',
    modified: '2026-11-25T10:00:00.000Z',
    expires: '2026-11-26T10:00:00.000Z',
    ...change,
  };
}

/** The engines the server's workers lack (their formats are left out of /v1/convert/formats). */
let missingEngines: ConversionEngine[] = [];

async function fakeGateway(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  if (pathname === '/v1/users/me') return profileAnswer();
  if (pathname === '/v1/convert/formats') {
    const status = { workers: 1, available: [], missing: missingEngines };
    return json(200, { success: true, formats: formatsWithEngines(status), targets: Object.values(TARGET_FORMATS), engines: status });
  }
  if (pathname === '/v1/convert/jobs')
    return json(200, { success: true, jobs: uploads.length > 0 ? [job] : [], total: 0, offset: 0, limit: 10 });
  if (pathname === '/v1/convert/jobs/job-1') return json(200, { success: true, job });
  return json(404, { success: false, error: 'NOT_FOUND' });
}

/** The upload (XHR, for its progress): reports half the bytes sent, then answers 202 with the job when let go. */
class FakeUpload {
  status = 0;
  statusText = '';
  responseText = '';
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  private url = '';
  private headers: Record<string, string> = {};
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  abort() {
    this.onabort?.();
  }
  send(form: FormData) {
    const fields = Object.fromEntries([...form.entries()].map(([k, v]) => [k, typeof v === 'string' ? v : `file:${(v as File).name}`]));
    uploads.push({ url: this.url, authorization: this.headers.authorization, fields });
    this.upload.onprogress?.({ lengthComputable: true, loaded: 1024, total: 2048 });
    finishUpload = () => {
      this.status = 202;
      this.responseText = JSON.stringify({ success: true, job });
      this.onload?.();
    };
  }
}

let Page: ComponentType<ToolPageProps>;

beforeAll(async () => {
  // The explanation below the tool brings the kit's stylesheet, which Jest cannot load: its text is not under test.
  jest.unstable_mockModule('../../shared/ui/ToolAbout', () => ({
    ToolAbout: ({ children }: { children: ReactNode }) => <div>{children}</div>,
  }));
  installGateway(fakeGateway);
  globalThis.XMLHttpRequest = FakeUpload as unknown as typeof XMLHttpRequest;
  const { session } = await import('../../shared/session/session');
  await session.adopt('session-token');
  await session.start(); // the page waits for the start-up check (no stored token here: the adopted session stays)
  ({ default: Page } = await import('./page'));
});

beforeEach(() => {
  missingEngines = [];
  uploads.length = 0;
  job = jobView({});
});

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <Page tool={meta} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** Chooses report.docx and presses Convert; answers its row. */
async function convertReport(user: ReturnType<typeof userEvent.setup>): Promise<HTMLElement> {
  renderPage();
  await user.upload(await screen.findByLabelText('Choose files'), new File([new Uint8Array(2048)], 'report.docx'));
  const list = screen.getByRole('list', { name: 'Conversions' });
  const row = within(list).getByText('report.docx').closest('li') as HTMLElement;
  expect((within(row).getByRole('combobox', { name: 'Convert report.docx to' }) as HTMLSelectElement).value).toBe('pdf');
  await user.click(within(row).getByRole('button', { name: 'Convert' }));
  return row;
}

test('a chosen file is uploaded, converted with its progress shown, and done', async () => {
  const user = userEvent.setup();
  const row = await convertReport(user);

  const uploading = await within(row).findByRole('progressbar', { name: 'Uploading' });
  expect(uploading.getAttribute('aria-valuenow')).toBe('50');
  expect(uploads).toEqual([
    { url: '/v1/convert/upload', authorization: 'Bearer session-token', fields: { to: 'pdf', from: 'docx', file: 'file:report.docx' } },
  ]);

  job = jobView({ state: 'active', progress: 40 });
  finishUpload();
  await within(row).findByRole('progressbar', { name: 'Converting' });
  expect(within(row).queryByRole('progressbar', { name: 'Uploading' })).toBeNull();
  // The job's own progress, once polled.
  await within(row).findByText('Converting: 40%', {}, POLL_WAIT);

  job = jobView({ state: 'completed', progress: 100, output: { filename: 'report.pdf', mediaType: 'application/pdf', size: 4096 } });
  expect((await within(row).findByRole('status', {}, POLL_WAIT)).textContent).toBe('Converted: report.pdf (4.1 kB)');
  expect(within(row).getByRole('button', { name: 'Download' })).toBeTruthy();
  expect(within(row).queryByRole('progressbar')).toBeNull();
  // The recent conversions were loaded again with the finished job.
  const recent = screen.getByRole('region', { name: 'Your recent conversions' });
  expect(await within(recent).findByText('completed')).toBeTruthy();
});

test('a job that fails shows its error', async () => {
  const user = userEvent.setup();
  const row = await convertReport(user);
  await within(row).findByRole('progressbar', { name: 'Uploading' });
  finishUpload();
  await within(row).findByRole('progressbar', { name: 'Converting' });

  job = jobView({ state: 'failed', error: 'the document could not be read' });
  expect((await within(row).findByRole('alert', {}, POLL_WAIT)).textContent).toBe('the document could not be read');
  expect(within(row).queryByRole('progressbar')).toBeNull();
  expect(within(row).queryByRole('button', { name: 'Download' })).toBeNull();
});

test('a file whose engine the server lacks is marked unavailable, with no Convert nor Convert all but a Remove, and left out of the formats', async () => {
  missingEngines = ['libreoffice'];
  const user = userEvent.setup();
  renderPage();
  await screen.findByRole('table');
  // Once the server's formats are known, the table lists no document format.
  await waitFor(() => expect(screen.queryByRole('rowheader', { name: 'Word document' })).toBeNull());
  expect(screen.getByRole('rowheader', { name: 'PNG image' })).toBeTruthy();
  await user.upload(await screen.findByLabelText('Choose files'), new File([new Uint8Array(2048)], 'report.docx'));
  const row = within(screen.getByRole('list', { name: 'Conversions' }))
    .getByText('report.docx')
    .closest('li') as HTMLElement;
  expect(within(row).getByRole('alert').textContent).toMatch(
    /^Converting a Word document is unavailable on this server right now: LibreOffice.*is not installed/,
  );
  expect(within(row).queryByRole('button', { name: 'Convert' })).toBeNull();
  // Nothing on the list can be converted: no "Convert all" either; Remove takes the file off the list.
  expect(screen.queryByRole('button', { name: 'Convert all' })).toBeNull();
  await user.click(within(row).getByRole('button', { name: 'Remove' }));
  expect(screen.queryByRole('list', { name: 'Conversions' })).toBeNull();
  expect(uploads).toEqual([]);
});

/** The explanation under the tool, once the server's formats are known (it names engines only then). */
async function explanation(): Promise<string> {
  await screen.findByRole('table');
  return screen.getByText(/^Conversions run on/).textContent ?? '';
}

test('the explanation names what the server converts now: LibreOffice and its formats only while a worker has it', async () => {
  renderPage();
  await waitFor(async () => expect(await explanation()).toMatch(/documents, spreadsheets and presentations with LibreOffice/));
  expect(await explanation()).toMatch(/PDF pages with poppler, images with libvips and web pages with a headless browser\./);
  expect(await explanation()).not.toMatch(/Other formats/);
});

test('with LibreOffice missing, the explanation names neither it nor documents, and says other formats cannot be converted now', async () => {
  missingEngines = ['libreoffice'];
  renderPage();
  await waitFor(() => expect(screen.queryByRole('rowheader', { name: 'Word document' })).toBeNull());
  const text = await explanation();
  expect(text).toMatch(
    /^Conversions run on Tinkerdesk's servers: PDF pages with poppler, images with libvips and web pages with a headless browser\./,
  );
  expect(text).not.toMatch(/LibreOffice|documents|spreadsheets|presentations/);
  expect(text).toMatch(/Other formats cannot be converted on this server right now\./);
});

test("the tool's subtitle promises no format (which ones depends on the server's engines)", () => {
  expect(meta.description).not.toMatch(
    /\b(docx|xlsx|pptx|odt|csv|pdf|png|webp|word|excel|powerpoint|documents?|spreadsheets?|presentations?)\b/i,
  );
});
