import { chromium, expect, test, type Browser, type Page } from '@playwright/test';
import bwipjs from 'bwip-js/node';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { CHROMIUM_ARGS } from './playwright.config.js';
import { watchErrors } from './helpers.js';

// The Bluetooth beeper on /integrations/hardware/ in real Chromium, against a beeper emulated by the
// browser itself (CDP BluetoothEmulation on the browser session; the device chooser answered through
// DeviceAccess on the page's session). Web Bluetooth needs two more launch flags than the other tests
// use, so these tests launch their own browser; the last one uses the default one, which has none.

const BLUETOOTH_ARGS = [...CHROMIUM_ARGS, '--enable-experimental-web-platform-features', '--enable-features=WebBluetooth'];
const ADDRESS = '09:09:09:09:09:09';

/** A 16-bit Bluetooth UUID in its 128-bit form. */
const uuid = (short: number) => `0000${short.toString(16).padStart(4, '0')}-0000-1000-8000-00805f9b34fb`;

function launchWithBluetooth(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: [...BLUETOOTH_ARGS, ...extraArgs] });
}

/** A Y4M video (what Chromium's fake camera plays) of a QR code on white: 640x480, 4:2:0, 2 s at 5 fps. */
async function qrVideo(text: string): Promise<string> {
  const [width, height] = [640, 480];
  const png = await bwipjs.toBuffer({
    bcid: 'qrcode',
    text,
    scale: 6,
    paddingwidth: 4,
    paddingheight: 4,
    backgroundcolor: 'FFFFFF',
  } as never);
  const rgb = await sharp({ create: { width, height, channels: 3, background: '#ffffff' } })
    .composite([{ input: png, gravity: 'centre' }])
    .removeAlpha()
    .raw()
    .toBuffer();
  // BT.601 studio range, chroma from the top-left pixel of each 2x2 block.
  const y = Buffer.alloc(width * height);
  const u = Buffer.alloc((width / 2) * (height / 2));
  const v = Buffer.alloc((width / 2) * (height / 2));
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      const i = (row * width + col) * 3;
      const [r, g, b] = [rgb[i]!, rgb[i + 1]!, rgb[i + 2]!];
      y[row * width + col] = Math.round(16 + 0.257 * r + 0.504 * g + 0.098 * b);
      if (row % 2 === 0 && col % 2 === 0) {
        const c = (row / 2) * (width / 2) + col / 2;
        u[c] = Math.round(128 - 0.148 * r - 0.291 * g + 0.439 * b);
        v[c] = Math.round(128 + 0.439 * r - 0.368 * g - 0.071 * b);
      }
    }
  }
  const frame = Buffer.concat([Buffer.from('FRAME\n'), y, u, v]);
  const file = join(await mkdtemp(join(tmpdir(), 'tinkerdesk-beeper-')), 'qr.y4m');
  await writeFile(
    file,
    Buffer.concat([Buffer.from(`YUV4MPEG2 W${width} H${height} F5:1 Ip A1:1 C420jpeg\n`), ...Array<Buffer>(10).fill(frame)]),
  );
  return file;
}

interface EmulatedBeeper {
  /** The bytes of each write to the beeper's characteristic. */
  writes: number[][];
  /** The beeper goes out of range: its GATT connection drops (it advertises again when a chooser looks for it). */
  lose(): Promise<void>;
}

type BeeperSpec = {
  name: string;
  service: number;
  characteristic: number;
  properties: { write?: boolean; writeWithoutResponse?: boolean };
};

/**
 * A powered-on adapter with one beeper near it, answering GATT connection, discovery and writes with
 * success, and the page's chooser answered with that beeper (each prompt once: it is announced twice).
 */
async function emulateBeeper(browser: Browser, page: Page, beeper: BeeperSpec): Promise<EmulatedBeeper> {
  const session = await browser.newBrowserCDPSession();
  const writes: number[][] = [];
  // A simulated GATT disconnection takes the peripheral's services with it: they are added again
  // when the page discovers them on its next connection.
  let lost = false;
  const addServices = async () => {
    const { serviceId } = await session.send('BluetoothEmulation.addService', { address: ADDRESS, serviceUuid: uuid(beeper.service) });
    await session.send('BluetoothEmulation.addCharacteristic', {
      serviceId,
      characteristicUuid: uuid(beeper.characteristic),
      properties: beeper.properties,
    });
  };
  session.on('BluetoothEmulation.gattOperationReceived', (event) => {
    void (async () => {
      if (event.type === 'discovery' && lost) {
        lost = false;
        await addServices();
      }
      await session.send('BluetoothEmulation.simulateGATTOperationResponse', { address: event.address, type: event.type, code: 0 });
    })();
  });
  session.on('BluetoothEmulation.characteristicOperationReceived', (event) => {
    if (event.type === 'write') writes.push([...Buffer.from(event.data ?? '', 'base64')]);
    void session.send('BluetoothEmulation.simulateCharacteristicOperationResponse', {
      characteristicId: event.characteristicId,
      type: event.type,
      code: 0,
    });
  });
  await session.send('BluetoothEmulation.enable', { state: 'powered-on', leSupported: true });
  await session.send('BluetoothEmulation.simulatePreconnectedPeripheral', {
    address: ADDRESS,
    name: beeper.name,
    manufacturerData: [],
    knownServiceUuids: [uuid(beeper.service)],
  });
  await addServices();

  const pageSession = await page.context().newCDPSession(page);
  const answered = new Set<string>();
  pageSession.on('DeviceAccess.deviceRequestPrompted', (prompt) => {
    const device = prompt.devices.find((d) => d.id === ADDRESS);
    if (!device) {
      // Not connected to the system any more: it is found again by its advertisement (appearance,
      // txPower and manufacturerData are needed, or the browser crashes).
      void session.send('BluetoothEmulation.simulateAdvertisement', {
        entry: {
          deviceAddress: ADDRESS,
          rssi: -50,
          scanRecord: { name: beeper.name, uuids: [uuid(beeper.service)], appearance: 0, txPower: 0, manufacturerData: [] },
        },
      });
      return;
    }
    if (answered.has(prompt.id)) return;
    answered.add(prompt.id);
    void pageSession.send('DeviceAccess.selectPrompt', { id: prompt.id, deviceId: device.id });
  });
  await pageSession.send('DeviceAccess.enable');
  return {
    writes,
    lose: async () => {
      lost = true;
      await session.send('BluetoothEmulation.simulateGATTDisconnection', { address: ADDRESS });
    },
  };
}

/** The beeper's own logged errors (it logs every error it raises) are expected; anything else is not. */
const unexpected = (errors: string[], expected: RegExp) => errors.filter((e) => !(e.startsWith('Bluetooth beeper:') && expected.test(e)));

test('Beeper: connect through the chooser, Beep writes 2, Stop writes 0, a lost connection, Not connected, navigation keeps it', async ({
  baseURL,
}) => {
  test.setTimeout(60_000);
  const browser = await launchWithBluetooth();
  try {
    const page = await (await browser.newContext({ baseURL })).newPage();
    const errors = watchErrors(page);
    await page.goto('/integrations/hardware/');
    const status = page.getByRole('status').filter({ hasText: /^(Disconnected|Connecting|Connected)/ });
    await expect(status).toHaveText('Disconnected');
    await expect(page.locator('[data-coming="beeper"]')).toHaveCount(0);
    const emulated = await emulateBeeper(browser, page, {
      name: 'iTAG',
      service: 0x1802,
      characteristic: 0x2a06,
      properties: { write: true },
    });

    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect(status).toHaveText('Connected to iTAG');

    await page.getByRole('button', { name: 'Beep', exact: true }).click();
    await expect.poll(() => emulated.writes).toEqual([[2]]);
    // The keyboard works as well as the mouse.
    await page.getByRole('button', { name: 'Stop', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => emulated.writes).toEqual([[2], [0]]);
    await expect(page.getByRole('alert')).toHaveCount(0);

    // The beeper goes away: the page says so, and sending is refused.
    await emulated.lose();
    await expect(status).toHaveText('Disconnected');
    await expect(page.getByText('iTAG disconnected: it may be out of range or switched off.')).toBeVisible();
    await page.getByRole('button', { name: 'Beep', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText('Not connected');
    expect(emulated.writes).toEqual([[2], [0]]);

    // Connect again; the connection outlives moving to another page of the site and back.
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect(status).toHaveText('Connected to iTAG');
    await expect(page.getByRole('alert')).toHaveCount(0);
    await page.getByRole('link', { name: 'barcode scanner' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Barcode scanner' })).toBeVisible();
    await page.goBack();
    await expect(status).toHaveText('Connected to iTAG');
    await page.getByRole('button', { name: 'Beep', exact: true }).click();
    await expect.poll(() => emulated.writes).toEqual([[2], [0], [2]]);

    await page.getByRole('button', { name: 'Disconnect', exact: true }).click();
    await expect(status).toHaveText('Disconnected');
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText('Not connected');
    expect(emulated.writes).toEqual([[2], [0], [2]]);
    expect(unexpected(errors, /Not connected/)).toEqual([]);
  } finally {
    await browser.close();
  }
});

test('Beeper: a beeper with the 0xFFE0 service and a write-without-response characteristic', async ({ baseURL }) => {
  const browser = await launchWithBluetooth();
  try {
    const page = await (await browser.newContext({ baseURL })).newPage();
    const errors = watchErrors(page);
    await page.goto('/integrations/hardware/');
    const emulated = await emulateBeeper(browser, page, {
      name: 'Counter beeper',
      service: 0xffe0,
      characteristic: 0xffe1,
      properties: { writeWithoutResponse: true },
    });
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: /^Connected/ })).toHaveText('Connected to Counter beeper');
    await page.getByRole('button', { name: 'Beep', exact: true }).click();
    await expect.poll(() => emulated.writes).toEqual([[2]]);
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await expect.poll(() => emulated.writes).toEqual([[2], [0]]);
    expect(errors).toEqual([]);
  } finally {
    await browser.close();
  }
});

test('Beeper: the settings are kept in localStorage', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/integrations/hardware/');
  const onScan = page.getByRole('checkbox', { name: 'Beep when the barcode scanner reads a code' });
  const onShare = page.getByRole('checkbox', { name: 'Beep when a share arrives' });
  await expect(onScan).not.toBeChecked();
  await expect(onShare).not.toBeChecked();
  await onScan.check();
  await page.reload();
  await expect(onScan).toBeChecked();
  await expect(onShare).not.toBeChecked();
  expect(
    await page.evaluate(() => [localStorage.getItem('tinkerdesk.beeper.onScan'), localStorage.getItem('tinkerdesk.beeper.onShare')]),
  ).toEqual(['true', null]);
  await onScan.uncheck();
  await onShare.check();
  expect(
    await page.evaluate(() => [localStorage.getItem('tinkerdesk.beeper.onScan'), localStorage.getItem('tinkerdesk.beeper.onShare')]),
  ).toEqual(['false', 'true']);
  expect(errors).toEqual([]);
});

test('Beeper: Web Bluetooth without an adapter says Bluetooth unavailable', async ({ baseURL }) => {
  const browser = await launchWithBluetooth();
  try {
    const page = await (await browser.newContext({ baseURL })).newPage();
    const errors = watchErrors(page);
    await page.goto('/integrations/hardware/');
    await expect(page.getByText('Bluetooth is off or missing on this device')).toBeVisible();
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText('Bluetooth unavailable');
    await expect(page.getByRole('status').filter({ hasText: /^Disconnected/ })).toHaveText('Disconnected');
    expect(unexpected(errors, /Bluetooth unavailable/)).toEqual([]);
  } finally {
    await browser.close();
  }
});

test('Beeper: a browser without Web Bluetooth gets a clear message, at 375 px too', async ({ page }) => {
  const errors = watchErrors(page);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/integrations/hardware/');
  expect(await page.evaluate(() => 'bluetooth' in navigator)).toBe(false);
  await expect(
    page.getByText(/^This browser has no Web Bluetooth, so this page cannot reach a beeper\. Open it in Chrome or Edge/),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('Bluetooth unavailable');
  await page.getByRole('button', { name: 'Beep', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('Not connected');
  // Nothing sticks out sideways on a phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  expect(unexpected(errors, /Bluetooth unavailable|Not connected/)).toEqual([]);
});

test('Beeper: with the setting on, the barcode scanner beeps the connected beeper once per new code', async ({ baseURL }) => {
  test.setTimeout(90_000);
  const video = await qrVideo('https://tinkerdesk.dev/beep-me');
  const browser = await launchWithBluetooth([
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
    `--use-file-for-fake-video-capture=${video}`,
  ]);
  try {
    const page = await (await browser.newContext({ baseURL, permissions: ['camera'] })).newPage();
    const errors = watchErrors(page);
    await page.goto('/integrations/hardware/');
    const emulated = await emulateBeeper(browser, page, {
      name: 'iTAG',
      service: 0x1802,
      characteristic: 0x2a06,
      properties: { write: true },
    });
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: /^Connected/ })).toHaveText('Connected to iTAG');
    await page.getByRole('checkbox', { name: 'Beep when the barcode scanner reads a code' }).check();

    // To the scanner inside the app: the connection comes along.
    await page.getByRole('link', { name: 'barcode scanner' }).click();
    await page.getByRole('button', { name: 'Start camera' }).click();
    const list = page.getByRole('region', { name: 'Scanned codes' }).getByRole('listitem');
    await expect(list.filter({ hasText: 'https://tinkerdesk.dev/beep-me' })).toHaveCount(1, { timeout: 20_000 });
    // A short beep: 2, then 0; the code held in view does not beep again.
    await expect.poll(() => emulated.writes).toEqual([[2], [0]]);
    await page.waitForTimeout(1500);
    expect(emulated.writes).toEqual([[2], [0]]);
    await page.getByRole('button', { name: 'Stop camera' }).click();
    expect(errors).toEqual([]);
  } finally {
    await browser.close();
  }
});
