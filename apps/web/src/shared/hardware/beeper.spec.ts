import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { Beeper, type BeeperEventMap } from './beeper';
import { BLUETOOTH_UNAVAILABLE, NOT_CONNECTED, type BluetoothLike } from './beeper-protocol';
import { BEEPER_SETTING_KEYS, beepIfEnabled, beeperConnection, setBeepSetting } from './connection';

// A fake of navigator.bluetooth (the only thing faked here): devices with GATT servers whose
// services hold characteristics that record the bytes written to them.

class FakeCharacteristic {
  readonly writes: number[] = [];
  /** How each write was sent. */
  readonly kinds: string[] = [];
  failure: Error | null = null;
  constructor(readonly properties: { write: boolean; writeWithoutResponse: boolean } = { write: true, writeWithoutResponse: false }) {}

  private async record(kind: string, value: BufferSource) {
    if (this.failure) throw this.failure;
    const bytes = value instanceof ArrayBuffer ? new Uint8Array(value) : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    this.writes.push(...bytes);
    this.kinds.push(kind);
  }

  writeValueWithResponse(value: BufferSource) {
    return this.record('with-response', value);
  }

  writeValueWithoutResponse(value: BufferSource) {
    return this.record('without-response', value);
  }
}

function notFound(what: string) {
  return Object.assign(new Error(`No ${what} found`), { name: 'NotFoundError' });
}

class FakeServer {
  connected = false;
  connects = 0;
  constructor(
    private readonly device: FakeDevice,
    private readonly services: Record<number, Record<number, FakeCharacteristic>>,
  ) {}

  async connect() {
    this.connects++;
    this.connected = true;
    return this;
  }

  disconnect() {
    if (!this.connected) return;
    this.connected = false;
    this.device.dispatchEvent(new Event('gattserverdisconnected'));
  }

  async getPrimaryService(service: number) {
    this.device.asked.push(service);
    const characteristics = this.services[service];
    if (!characteristics) throw notFound(`service ${service}`);
    return {
      async getCharacteristic(characteristic: number) {
        const found = characteristics[characteristic];
        if (!found) throw notFound(`characteristic ${characteristic}`);
        return found;
      },
    };
  }
}

class FakeDevice extends EventTarget {
  readonly id: string;
  readonly gatt: FakeServer;
  readonly asked: number[] = [];

  constructor(
    private readonly deviceName: string,
    services: Record<number, Record<number, FakeCharacteristic>>,
  ) {
    super();
    this.id = `device-${deviceName}`;
    this.gatt = new FakeServer(this, services);
  }

  get name() {
    return this.deviceName;
  }

  /** The device goes away (out of range, switched off). */
  lose() {
    this.gatt.connected = false;
    this.dispatchEvent(new Event('gattserverdisconnected'));
  }
}

type FakeBluetooth = BluetoothLike & {
  getAvailability: jest.Mock<() => Promise<boolean>>;
  requestDevice: jest.Mock<BluetoothLike['requestDevice']>;
};

function fakeBluetooth(device: FakeDevice | Error, available = true): FakeBluetooth {
  return {
    getAvailability: jest.fn(async () => available),
    requestDevice: jest.fn(async () => {
      if (device instanceof Error) throw device;
      return device;
    }),
    getDevices: async () => (device instanceof Error ? [] : [device]),
  };
}

/** Puts `bluetooth` on navigator (undefined: a browser without Web Bluetooth). */
function setNavigator(bluetooth: BluetoothLike | undefined) {
  Object.defineProperty(globalThis, 'navigator', { value: bluetooth ? { bluetooth } : {}, configurable: true, writable: true });
}

/** Every event the beeper emits, as [type, detail]. */
function record(beeper: Beeper) {
  const events: [string, unknown][] = [];
  for (const type of ['state', 'connected', 'disconnected', 'error'] as const) {
    beeper.addEventListener(type, (event: BeeperEventMap[typeof type]) => events.push([type, event.detail]));
  }
  return events;
}

const immediateAlert = () => new FakeCharacteristic();
let logged: jest.SpiedFunction<typeof console.error>;

beforeEach(() => {
  logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  logged.mockRestore();
  Reflect.deleteProperty(globalThis, 'navigator');
  Reflect.deleteProperty(globalThis, 'localStorage');
});

describe('connecting (disconnected, connected after finding services)', () => {
  it('starts disconnected, connects through the chooser and is connected once the service is found', async () => {
    const alert = immediateAlert();
    const device = new FakeDevice('iTAG', { 6146: { 10758: alert } });
    const bluetooth = fakeBluetooth(device);
    setNavigator(bluetooth);
    const beeper = new Beeper();
    const events = record(beeper);
    expect(beeper.snapshot).toEqual({ state: 'disconnected', deviceName: null });

    await expect(beeper.connect()).resolves.toBe('iTAG');

    expect(beeper.snapshot).toEqual({ state: 'connected', deviceName: 'iTAG' });
    expect(beeper.connected).toBe(true);
    expect(events).toEqual([
      ['state', { state: 'connecting', deviceName: null }],
      ['state', { state: 'connecting', deviceName: 'iTAG' }],
      ['state', { state: 'connected', deviceName: 'iTAG' }],
      ['connected', { deviceName: 'iTAG' }],
    ]);
    // The chooser offers devices with either service and grants access to both.
    expect(bluetooth.requestDevice).toHaveBeenCalledWith({
      filters: [{ services: [6146] }, { services: [65504] }],
      optionalServices: [6146, 65504],
    });
    expect(device.gatt.connects).toBe(1);
    expect(logged).not.toHaveBeenCalled();
  });

  it('tries 6146/10758 first, then 65504/65505', async () => {
    const ffe1 = new FakeCharacteristic();
    const device = new FakeDevice('Beeper FFE0', { 65504: { 65505: ffe1 } });
    setNavigator(fakeBluetooth(device));
    const beeper = new Beeper();
    await beeper.connect();
    expect(device.asked).toEqual([6146, 65504]);
    await beeper.beep();
    expect(ffe1.writes).toEqual([2]);

    const alert = immediateAlert();
    const other = new FakeCharacteristic();
    const both = new FakeDevice('Both', { 6146: { 10758: alert }, 65504: { 65505: other } });
    setNavigator(fakeBluetooth(both));
    await beeper.connect();
    expect(both.asked).toEqual([6146]);
    await beeper.beep();
    expect(alert.writes).toEqual([2]);
    expect(other.writes).toEqual([]);
    // Connecting to another device let go of the first one.
    expect(device.gatt.connected).toBe(false);
  });

  it('a service without the characteristic falls through to the other pair', async () => {
    const ffe1 = new FakeCharacteristic();
    const device = new FakeDevice('Odd', { 6146: {}, 65504: { 65505: ffe1 } });
    setNavigator(fakeBluetooth(device));
    const beeper = new Beeper();
    await expect(beeper.connect()).resolves.toBe('Odd');
    await beeper.stop();
    expect(ffe1.writes).toEqual([0]);
  });

  it('a device with neither service is an error: logged, emitted, disconnected again', async () => {
    const device = new FakeDevice('Headphones', { 6144: {} });
    setNavigator(fakeBluetooth(device));
    const beeper = new Beeper();
    const events = record(beeper);
    await expect(beeper.connect()).rejects.toThrow('Headphones is not a beeper this page knows (no alert service found)');
    expect(beeper.state).toBe('disconnected');
    expect(device.gatt.connected).toBe(false);
    expect(events.filter(([type]) => type === 'error')).toHaveLength(1);
    expect(events.at(-2)).toEqual(['state', { state: 'disconnected', deviceName: null }]);
    expect(logged).toHaveBeenCalledTimes(1);
  });

  it('closing the chooser is no error: back to disconnected, null', async () => {
    setNavigator(fakeBluetooth(Object.assign(new Error('User cancelled the requestDevice() chooser.'), { name: 'NotFoundError' })));
    const beeper = new Beeper();
    const events = record(beeper);
    await expect(beeper.connect()).resolves.toBeNull();
    expect(beeper.state).toBe('disconnected');
    expect(events.some(([type]) => type === 'error')).toBe(false);
    expect(logged).not.toHaveBeenCalled();
  });

  it('a failed GATT connection is logged and emitted', async () => {
    const device = new FakeDevice('iTAG', { 6146: { 10758: immediateAlert() } });
    device.gatt.connect = async () => {
      throw Object.assign(new Error('Connection failed for unknown reason.'), { name: 'NetworkError' });
    };
    setNavigator(fakeBluetooth(device));
    const beeper = new Beeper();
    const errors: Error[] = [];
    beeper.addEventListener('error', (event) => errors.push(event.detail));
    await expect(beeper.connect()).rejects.toThrow('Connection failed for unknown reason.');
    expect(errors.map((e) => e.message)).toEqual(['Connection failed for unknown reason.']);
    expect(logged).toHaveBeenCalledWith('Bluetooth beeper:', errors[0]);
    expect(beeper.state).toBe('disconnected');
  });

  it('disconnect() while connecting abandons the attempt', async () => {
    let release: () => void = () => undefined;
    const device = new FakeDevice('Slow', { 6146: { 10758: immediateAlert() } });
    const connect = device.gatt.connect.bind(device.gatt);
    device.gatt.connect = () => new Promise((resolve) => (release = () => resolve(connect())));
    setNavigator(fakeBluetooth(device));
    const beeper = new Beeper();
    const connecting = beeper.connect();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(beeper.snapshot).toEqual({ state: 'connecting', deviceName: 'Slow' });
    beeper.disconnect();
    release();
    await expect(connecting).resolves.toBeNull();
    expect(beeper.state).toBe('disconnected');
    expect(device.gatt.connected).toBe(false);
    expect(logged).not.toHaveBeenCalled();
  });
});

describe('commands (2 beeps, 0 stops)', () => {
  it('Beep writes 2 and Stop writes 0, one byte each, in order', async () => {
    const alert = immediateAlert();
    setNavigator(fakeBluetooth(new FakeDevice('iTAG', { 6146: { 10758: alert } })));
    const beeper = new Beeper();
    await beeper.connect();
    await beeper.beep();
    await beeper.stop();
    expect(alert.writes).toEqual([2, 0]);
    expect(alert.kinds).toEqual(['with-response', 'with-response']);
    // Writes sent together still go one after another.
    await Promise.all([beeper.beep(), beeper.stop(), beeper.send(2)]);
    expect(alert.writes).toEqual([2, 0, 2, 0, 2]);
  });

  it('a characteristic that only takes writes without response gets them so', async () => {
    const alert = new FakeCharacteristic({ write: false, writeWithoutResponse: true });
    setNavigator(fakeBluetooth(new FakeDevice('iTAG', { 6146: { 10758: alert } })));
    const beeper = new Beeper();
    await beeper.connect();
    await beeper.beep();
    expect(alert.writes).toEqual([2]);
    expect(alert.kinds).toEqual(['without-response']);
  });

  it("sending while not connected raises exactly 'Not connected', logged and emitted", async () => {
    setNavigator(fakeBluetooth(new FakeDevice('iTAG', { 6146: { 10758: immediateAlert() } })));
    const beeper = new Beeper();
    const errors: Error[] = [];
    beeper.addEventListener('error', (event) => errors.push(event.detail));
    await expect(beeper.beep()).rejects.toThrow(new Error(NOT_CONNECTED));
    await expect(beeper.stop()).rejects.toThrow(NOT_CONNECTED);
    expect(NOT_CONNECTED).toBe('Not connected');
    expect(errors.map((e) => e.message)).toEqual(['Not connected', 'Not connected']);
    expect(logged).toHaveBeenCalledTimes(2);
    expect(logged).toHaveBeenNthCalledWith(1, 'Bluetooth beeper:', errors[0]);
  });

  it('a failed write is logged, emitted and thrown; the next write still goes out', async () => {
    const alert = immediateAlert();
    setNavigator(fakeBluetooth(new FakeDevice('iTAG', { 6146: { 10758: alert } })));
    const beeper = new Beeper();
    const errors: string[] = [];
    beeper.addEventListener('error', (event) => errors.push(event.detail.message));
    await beeper.connect();
    alert.failure = Object.assign(new Error('GATT operation failed for unknown reason.'), { name: 'NetworkError' });
    await expect(beeper.beep()).rejects.toThrow('GATT operation failed for unknown reason.');
    alert.failure = null;
    await beeper.stop();
    expect(alert.writes).toEqual([0]);
    expect(errors).toEqual(['GATT operation failed for unknown reason.']);
    expect(logged).toHaveBeenCalledTimes(1);
  });
});

describe('disconnection', () => {
  it("the device's gattserverdisconnected event clears the connection", async () => {
    const device = new FakeDevice('iTAG', { 6146: { 10758: immediateAlert() } });
    setNavigator(fakeBluetooth(device));
    const beeper = new Beeper();
    await beeper.connect();
    const events = record(beeper);
    device.lose();
    expect(beeper.snapshot).toEqual({ state: 'disconnected', deviceName: null });
    expect(events).toEqual([
      ['state', { state: 'disconnected', deviceName: null }],
      ['disconnected', { deviceName: 'iTAG', reason: 'lost' }],
    ]);
    await expect(beeper.beep()).rejects.toThrow('Not connected');
  });

  it('disconnect() closes the GATT connection and says so once', async () => {
    const device = new FakeDevice('iTAG', { 6146: { 10758: immediateAlert() } });
    setNavigator(fakeBluetooth(device));
    const beeper = new Beeper();
    await beeper.connect();
    const events = record(beeper);
    beeper.disconnect();
    expect(device.gatt.connected).toBe(false);
    expect(events).toEqual([
      ['state', { state: 'disconnected', deviceName: null }],
      ['disconnected', { deviceName: 'iTAG', reason: 'user' }],
    ]);
    beeper.disconnect();
    expect(events).toHaveLength(2);
    await expect(beeper.stop()).rejects.toThrow('Not connected');
  });

  it('a device that went away can be connected again', async () => {
    const alert = immediateAlert();
    const device = new FakeDevice('iTAG', { 6146: { 10758: alert } });
    setNavigator(fakeBluetooth(device));
    const beeper = new Beeper();
    await beeper.connect();
    device.lose();
    await beeper.connect();
    await beeper.beep();
    expect(alert.writes).toEqual([2]);
    expect(device.gatt.connects).toBe(2);
  });
});

describe("'Bluetooth unavailable' (listing or scanning without Bluetooth)", () => {
  it('without navigator.bluetooth', async () => {
    setNavigator(undefined);
    const beeper = new Beeper();
    const errors: string[] = [];
    beeper.addEventListener('error', (event) => errors.push(event.detail.message));
    await expect(beeper.available()).resolves.toBe(false);
    await expect(beeper.connect()).rejects.toThrow(new Error(BLUETOOTH_UNAVAILABLE));
    await expect(beeper.devices()).rejects.toThrow('Bluetooth unavailable');
    expect(errors).toEqual(['Bluetooth unavailable', 'Bluetooth unavailable']);
    expect(logged).toHaveBeenCalledTimes(2);
    expect(beeper.state).toBe('disconnected');
  });

  it('when getAvailability() is false, without opening the chooser', async () => {
    const bluetooth = fakeBluetooth(new FakeDevice('iTAG', { 6146: { 10758: immediateAlert() } }), false);
    setNavigator(bluetooth);
    const beeper = new Beeper();
    const events = record(beeper);
    await expect(beeper.available()).resolves.toBe(false);
    await expect(beeper.connect()).rejects.toThrow('Bluetooth unavailable');
    await expect(beeper.devices()).rejects.toThrow('Bluetooth unavailable');
    expect(bluetooth.requestDevice).not.toHaveBeenCalled();
    expect(events.map(([type]) => type)).toEqual(['error', 'error']);
  });

  it('with Bluetooth, devices() lists the devices this site may use', async () => {
    const device = new FakeDevice('iTAG', { 6146: { 10758: immediateAlert() } });
    setNavigator(fakeBluetooth(device));
    const beeper = new Beeper();
    await expect(beeper.available()).resolves.toBe(true);
    await expect(beeper.devices()).resolves.toEqual([device]);
    await expect(beeper.connectTo(device)).resolves.toBe('iTAG');
    expect(beeper.connected).toBe(true);
  });
});

describe('beepIfEnabled (the settings other pages use)', () => {
  function fakeStorage() {
    const items = new Map<string, string>();
    const storage = {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => void items.set(key, value),
    };
    Object.defineProperty(globalThis, 'localStorage', { value: storage, configurable: true, writable: true });
    return items;
  }

  it('beeps the connected beeper briefly (2 then 0) only for a reason that is on', async () => {
    const items = fakeStorage();
    const alert = immediateAlert();
    setNavigator(fakeBluetooth(new FakeDevice('iTAG', { 6146: { 10758: alert } })));
    // Off by default, and nothing to beep while disconnected.
    await expect(beepIfEnabled('scan')).resolves.toBe(false);
    setBeepSetting('scan', true);
    expect(items.get(BEEPER_SETTING_KEYS.scan)).toBe('true');
    expect(BEEPER_SETTING_KEYS).toEqual({ scan: 'tinkerdesk.beeper.onScan', share: 'tinkerdesk.beeper.onShare' });
    await expect(beepIfEnabled('scan')).resolves.toBe(false);

    await beeperConnection().connect();
    await expect(beepIfEnabled('share')).resolves.toBe(false);
    expect(alert.writes).toEqual([]);
    await expect(beepIfEnabled('scan')).resolves.toBe(true);
    expect(alert.writes).toEqual([2, 0]);
    setBeepSetting('share', true);
    await expect(beepIfEnabled('share')).resolves.toBe(true);
    expect(alert.writes).toEqual([2, 0, 2, 0]);
    setBeepSetting('scan', false);
    await expect(beepIfEnabled('scan')).resolves.toBe(false);
    expect(items.get(BEEPER_SETTING_KEYS.scan)).toBe('false');
    expect(beeperConnection()).toBe(beeperConnection());
    beeperConnection().disconnect();
  });
});
