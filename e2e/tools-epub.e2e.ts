import { expect, test } from '@playwright/test';
import { epubcheck } from '@tinkerdesk/testing';
import { strFromU8, unzipSync } from 'fflate';
import { downloaded, watchErrors } from './helpers.js';

// EPUB creation through the real UI: details, a cover, chapter images, Markdown and pasted HTML with
// non-Latin text, reordering; the downloaded book is checked by epubcheck. Then the draft survives a
// reload, and a book without a title or with a wrong language tag is explained.

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEklEQVR4nGP4z8DAwMDAxMDAAAANGQEDxRg5IAAAAABJRU5ErkJggg==',
  'base64',
);

async function epubcheckErrors(bytes: Buffer): Promise<string[]> {
  return (await epubcheck(bytes)).map((m) => `${m.severity} ${m.ID}: ${m.message}`);
}

test('EPUB creation: a book with cover, images, Markdown and HTML chapters in three scripts, reordered, passes epubcheck', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const errors = watchErrors(page);
  await page.goto('/tools/epub/');
  await page.getByLabel('Title', { exact: true }).fill('Stories from the Workbench');
  await page.getByLabel('Author', { exact: true }).fill('Grace Hopper');
  await page.getByLabel('Language', { exact: true }).fill('en');
  await page.getByLabel('Choose cover').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByRole('button', { name: 'Remove cover' })).toBeVisible();
  await page.getByLabel('Choose images').setInputFiles([{ name: 'bench photo.png', mimeType: 'image/png', buffer: PNG }]);
  await expect(page.getByRole('region', { name: 'Images' })).toContainText('![](bench%20photo.png)');

  await page.getByLabel('Chapter 1 title').fill('The bench');
  await page.getByLabel('Chapter 1 text').fill('A *workbench* story.\n\n![The bench](bench%20photo.png)\n\n- [x] glue\n- [ ] clamp');
  await page.getByRole('button', { name: 'Add chapter' }).click();
  await page.getByLabel('Chapter 2 title').fill('工作台的故事');
  await page.getByLabel('Chapter 2 text').fill('这是中文。Это русский текст. 日本語です。');
  await page.getByRole('button', { name: 'Add chapter' }).click();
  await page.getByLabel('Chapter 3 title').fill('من الورشة');
  await page.getByLabel('Chapter 3 format').selectOption('html');
  await page
    .getByLabel('Chapter 3 text')
    .fill('<p dir="rtl" onclick="alert(1)">نص عربي.</p><script>alert(2)</script><iframe src="https://example.com"></iframe>');
  // The Arabic chapter goes second.
  await page.getByRole('button', { name: 'Move chapter 3 up' }).click();
  const toc = page.getByRole('region', { name: 'Table of contents' }).getByRole('listitem');
  await expect(toc).toHaveText(['The bench', 'من الورشة', '工作台的故事']);

  // What making the book will change is shown before the download.
  const changes = page.getByRole('group', { name: 'What the book will change' });
  await expect(changes).toContainText('Chapter 2: <script> is not allowed in an EPUB chapter and was left out.');
  const book = await downloaded(page, 'Download EPUB');
  expect(book.name).toBe('Stories from the Workbench.epub');
  await expect(page.getByRole('status').filter({ hasText: 'The EPUB' })).toBeVisible();
  expect(await epubcheckErrors(book.bytes)).toEqual([]);
  const files = unzipSync(new Uint8Array(book.bytes));
  const nav = strFromU8(files['OEBPS/nav.xhtml']!);
  expect(nav.indexOf('The bench')).toBeLessThan(nav.indexOf('من الورشة'));
  expect(nav.indexOf('من الورشة')).toBeLessThan(nav.indexOf('工作台的故事'));
  expect(strFromU8(files['OEBPS/chapter-001.xhtml']!)).toContain('<img src="images/bench-photo.png" alt="The bench"/>');
  expect(strFromU8(files['OEBPS/chapter-002.xhtml']!)).not.toMatch(/script|onclick|iframe/);
  expect(strFromU8(files['OEBPS/content.opf']!)).toContain('<dc:creator id="author">Grace Hopper</dc:creator>');

  // The text, the cover and the images are kept as a draft in this browser.
  await page.reload();
  await expect(page.getByLabel('Title', { exact: true })).toHaveValue('Stories from the Workbench');
  await expect(page.getByLabel('Chapter 2 title')).toHaveValue('من الورشة');
  await expect(page.getByRole('button', { name: 'Remove cover' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Images' })).toContainText('![](bench%20photo.png)');
  const again = unzipSync(new Uint8Array((await downloaded(page, 'Download EPUB')).bytes));
  expect(
    Object.keys(again)
      .filter((f) => f.startsWith('OEBPS/images/'))
      .sort(),
  ).toEqual(['OEBPS/images/bench-photo.png', 'OEBPS/images/cover.png']);
  expect(errors).toEqual([]);
});

test('EPUB creation: a chapter whose text opens with its title gets one heading; a missing image is said while writing', async ({
  page,
}) => {
  const errors = watchErrors(page);
  await page.goto('/tools/epub/');
  await page.getByLabel('Title', { exact: true }).fill('One heading');
  await page.getByLabel('Chapter 1 title').fill('Getting started');
  await page.getByLabel('Chapter 1 text').fill('# Getting started\n\nFirst steps. ![A map](map.png)');
  await expect(page.getByRole('group', { name: 'What the book will change' })).toContainText(
    'Chapter 1: there is no image named "map.png" under Images.',
  );
  const file = await downloaded(page, 'Download EPUB');
  const chapter = strFromU8(unzipSync(new Uint8Array(file.bytes))['OEBPS/chapter-001.xhtml']!);
  expect(chapter.match(/<h1>Getting started<\/h1>/g)).toHaveLength(1);
  expect(await epubcheckErrors(file.bytes)).toEqual([]);
  expect(errors).toEqual([]);
});

test('EPUB creation: what a book needs is explained', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/tools/epub/');
  await page.getByLabel('Title', { exact: true }).fill('');
  await page.getByRole('button', { name: 'Download EPUB' }).click();
  await expect(page.getByRole('alert')).toHaveText('Give the book a title.');
  await page.getByLabel('Title', { exact: true }).fill('A title');
  await page.getByLabel('Language', { exact: true }).fill('english please');
  await page.getByRole('button', { name: 'Download EPUB' }).click();
  await expect(page.getByRole('alert')).toHaveText('"english please" is not a language tag: use one like en, fr, pt-BR or zh-Hans.');
  await page.getByLabel('Choose images').setInputFiles({ name: 'notes.png', mimeType: 'image/webp', buffer: Buffer.from('not a picture') });
  await expect(page.getByRole('alert')).toHaveText('"notes.png" is not a picture this browser can read.');
  expect(errors).toEqual([]);
});
