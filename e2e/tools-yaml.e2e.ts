import { expect, test } from '@playwright/test';
import { clipboardText, downloaded, watchErrors } from './helpers.js';

// YAML ⇄ JSON through the real UI: anchors, multi-document streams, indentation in the URL, errors with
// line and column (and the caret put there), copy and download, and a large file in the worker.

test('YAML to JSON: aliases resolved, documents counted, indentation kept in the URL, copy and download', async ({ page, context }) => {
  const errors = watchErrors(page);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/tools/converters/yaml/json/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('YAML to JSON');
  const input = page.getByLabel('Input', { exact: true });
  const output = page.getByLabel('Output', { exact: true });

  await input.fill('base: &b {host: localhost, port: 5432}\ncopy: *b\nflags: [yes, off, true]\n');
  await expect(output).toHaveValue(
    JSON.stringify(
      { base: { host: 'localhost', port: 5432 }, copy: { host: 'localhost', port: 5432 }, flags: ['yes', 'off', true] },
      null,
      2,
    ),
  );
  await page.getByLabel('Indentation').selectOption('none');
  await expect(output).toHaveValue(
    '{"base":{"host":"localhost","port":5432},"copy":{"host":"localhost","port":5432},"flags":["yes","off",true]}',
  );
  await expect(page).toHaveURL(/indent=none/);

  await input.fill('a: 1\n---\n- 2\n---\nthree\n');
  await expect(output).toHaveValue('[{"a":1},[2],"three"]');
  await expect(page.getByText('3 documents, as a JSON array')).toBeVisible();
  await page.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect.poll(() => clipboardText(page)).toBe('[{"a":1},[2],"three"]');
  const file = await downloaded(page, 'Download');
  expect(file.name).toBe('data.json');
  expect(JSON.parse(file.bytes.toString())).toEqual([{ a: 1 }, [2], 'three']);

  await page.reload();
  await expect(page.getByLabel('Indentation')).toHaveValue('none');
  expect(errors).toEqual([]);
});

test('YAML to JSON: an error gives line and column and shows the place in the input', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/tools/converters/yaml/json/');
  const input = page.getByLabel('Input', { exact: true });
  await input.fill('name: web\nports: [80, 443\nname: again\n');
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Line 3, column 1: Flow sequence in block collection must be sufficiently indented and end with a ]');
  await expect(page.getByLabel('Output', { exact: true })).toHaveValue('');
  await alert.getByRole('button', { name: 'Show in input' }).click();
  await expect(input).toBeFocused();
  expect(await input.evaluate((el: HTMLTextAreaElement) => el.selectionStart)).toBe('name: web\nports: [80, 443\n'.length);

  await input.fill('a: 1\na: 2\n');
  await expect(alert).toContainText('Line 2, column 1: Map keys must be unique');
  await input.fill(
    'a: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\n',
  );
  await expect(alert).toContainText('Excessive alias count');
  expect(errors).toEqual([]);
});

test('YAML to JSON: merge keys of a docker-compose file merged by default, a switch kept in the URL reads << as a plain key', async ({
  page,
}) => {
  const errors = watchErrors(page);
  await page.goto('/tools/converters/yaml/json/');
  const input = page.getByLabel('Input', { exact: true });
  const output = page.getByLabel('Output', { exact: true });
  const merge = page.getByLabel('Merge keys (<<: *base)');
  await expect(merge).toBeChecked();
  await page.getByLabel('Indentation').selectOption('none');
  await input.fill('x-app: &app\n  image: app:1\n  restart: always\nservices:\n  web:\n    <<: *app\n    restart: "no"\n');
  await expect(output).toHaveValue('{"x-app":{"image":"app:1","restart":"always"},"services":{"web":{"image":"app:1","restart":"no"}}}');
  await merge.uncheck();
  await expect(output).toHaveValue(
    '{"x-app":{"image":"app:1","restart":"always"},"services":{"web":{"<<":{"image":"app:1","restart":"always"},"restart":"no"}}}',
  );
  await expect(page).toHaveURL(/merge=0/);
  await page.reload();
  await expect(page.getByLabel('Merge keys (<<: *base)')).not.toBeChecked();
  await page.getByLabel('Merge keys (<<: *base)').check();
  await expect(page).not.toHaveURL(/merge=/);
  expect(errors).toEqual([]);
});

test('YAML to JSON: a line indented too deep is reported at that line, and Show in input puts the caret on it', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/tools/converters/yaml/json/');
  const input = page.getByLabel('Input', { exact: true });
  await input.fill('name: web\n  port: 80\n');
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Line 2, column 3: Bad indentation: this line continues the value on line 1');
  await alert.getByRole('button', { name: 'Show in input' }).click();
  await expect(input).toBeFocused();
  expect(await input.evaluate((el: HTMLTextAreaElement) => [el.selectionStart, el.selectionEnd])).toEqual([12, 13]);

  await input.fill('services:\n  web:\n    image: x\n   ports: [80]\n');
  await expect(alert).toContainText('Line 4, column 4: All mapping items must start at the same column');
  await alert.getByRole('button', { name: 'Show in input' }).click();
  expect(await input.evaluate((el: HTMLTextAreaElement) => el.value.slice(el.selectionStart))).toBe('ports: [80]\n');
  expect(errors).toEqual([]);
});

test('JSON to YAML: quoting, documents, 4-space indentation, JSON errors with position, a large file', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/tools/converters/json/yaml/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('JSON to YAML');
  const input = page.getByLabel('Input', { exact: true });
  const output = page.getByLabel('Output', { exact: true });

  await input.fill('{"on": "yes", "version": "1.10", "list": [1, {"deep": null}], "empty": ""}');
  // "on" and "yes" quoted: a YAML 1.1 reader would otherwise read `on: yes` as `True: True`.
  await expect(output).toHaveValue('"on": "yes"\nversion: "1.10"\nlist:\n  - 1\n  - deep: null\nempty: ""\n');
  await page.getByLabel('Indentation').selectOption('4');
  await expect(output).toHaveValue('"on": "yes"\nversion: "1.10"\nlist:\n    - 1\n    - deep: null\nempty: ""\n');
  await input.fill(
    '{"OFF": "N", "mode": "y", "perm": "0777", "count": "1_000", "time": "1:20", "day": "2024-01-05", "<<": "x", "v": "1.2.3"}',
  );
  await expect(output).toHaveValue(
    '"OFF": "N"\nmode: "y"\nperm: "0777"\ncount: "1_000"\ntime: "1:20"\nday: "2024-01-05"\n"<<": x\nv: 1.2.3\n',
  );

  await input.fill('[{"kind": "Service"}, {"kind": "Deployment"}]');
  await page.getByLabel('Top-level array as separate documents').check();
  await expect(output).toHaveValue('---\nkind: Service\n---\nkind: Deployment\n');
  await expect(page).toHaveURL(/documents=1/);
  const file = await downloaded(page, 'Download');
  expect(file.name).toBe('data.yaml');

  await input.fill('{\n  "a": 1,\n  "b": [1, 2,]\n}');
  await expect(page.getByRole('alert')).toContainText('Line 3, column 14: Expected a value, found "]"');

  const big = JSON.stringify(Array.from({ length: 20_000 }, (_, i) => ({ id: i, name: `item ${i}`, tags: ['a', 'b'] })));
  await page.getByLabel('Choose file').setInputFiles({ name: 'items.json', mimeType: 'application/json', buffer: Buffer.from(big) });
  await expect(page.getByText('items.json')).toBeVisible();
  await expect(output).toHaveValue(/^---\nid: 0\nname: item 0\ntags:\n {4}- a\n/, { timeout: 15_000 });
  await expect(page.getByText(/showing the first/)).toBeVisible();
  const yaml = await downloaded(page, 'Download');
  expect(yaml.name).toBe('items.yaml');
  expect(yaml.bytes.toString().match(/^---$/gm)).toHaveLength(20_000);
  expect(errors).toEqual([]);
});
