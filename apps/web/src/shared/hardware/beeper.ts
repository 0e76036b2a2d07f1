/**
 * A Bluetooth beeper over Web Bluetooth (docs/web-app.md#hardware-the-bluetooth-beeper). A beeper offers one of two
 * services, each with one characteristic that takes a one-byte command: 2 beeps, 0 stops.
 *
 * States: disconnected, connecting, connected (once its service and characteristic are found); the
 * device's 'gattserverdisconnected' event clears the connection. Every error is logged
 * (console.error), emitted as an 'error' event and thrown to the caller. The protocol (services,
 * commands, the write of one command) is in `beeper-protocol.ts`.
 */

import {
  BEEPER_COMMANDS,
  BLUETOOTH_UNAVAILABLE,
  NOT_CONNECTED,
  REQUEST_OPTIONS,
  findCharacteristic,
  isCancelled,
  webBluetooth,
  writeCommand,
  type BeeperCommand,
  type BluetoothCharacteristicLike,
  type BluetoothDeviceLike,
  type BluetoothLike,
} from './beeper-protocol';

/** For the hardware page, which asks whether this browser has Web Bluetooth. */
export { webBluetooth } from './beeper-protocol';

export type BeeperState = 'disconnected' | 'connecting' | 'connected';

export interface BeeperSnapshot {
  readonly state: BeeperState;
  /** The device's name while connecting or connected (empty when it has none). */
  readonly deviceName: string | null;
}

export interface BeeperEventMap {
  state: CustomEvent<BeeperSnapshot>;
  connected: CustomEvent<{ deviceName: string }>;
  /** `lost`: the device went away (its 'gattserverdisconnected'); `user`: disconnect() was called. */
  disconnected: CustomEvent<{ deviceName: string; reason: 'lost' | 'user' }>;
  error: CustomEvent<Error>;
}

export type BeeperListener<K extends keyof BeeperEventMap> = (event: BeeperEventMap[K]) => void;

const DISCONNECTED: BeeperSnapshot = { state: 'disconnected', deviceName: null };

function asError(failure: unknown): Error {
  return failure instanceof Error ? failure : new Error(String(failure));
}

export class Beeper extends EventTarget {
  private current: BeeperSnapshot = DISCONNECTED;
  private device: BluetoothDeviceLike | null = null;
  private characteristic: BluetoothCharacteristicLike | null = null;
  /** Bumped by every connect and disconnect, so a connection overtaken by another is dropped. */
  private attempt = 0;
  /** Writes go one after another (a GATT server takes one operation at a time). */
  private queue: Promise<void> = Promise.resolve();
  private readonly onGattDisconnected = (event: Event) => {
    if (event.target !== this.device) return;
    const deviceName = this.current.deviceName ?? '';
    this.clear();
    this.dispatch('disconnected', { deviceName, reason: 'lost' });
  };

  constructor(private readonly bluetooth: () => BluetoothLike | undefined = webBluetooth) {
    super();
  }

  get snapshot(): BeeperSnapshot {
    return this.current;
  }

  get state(): BeeperState {
    return this.current.state;
  }

  get connected(): boolean {
    return this.current.state === 'connected';
  }

  /** Whether this browser has Web Bluetooth and a Bluetooth adapter it may use. */
  async available(): Promise<boolean> {
    const bluetooth = this.bluetooth();
    if (!bluetooth) return false;
    if (!bluetooth.getAvailability) return true;
    try {
      return await bluetooth.getAvailability();
    } catch {
      return false;
    }
  }

  /** The devices this site may already use (listing): 'Bluetooth unavailable' without Bluetooth. */
  async devices(): Promise<BluetoothDeviceLike[]> {
    try {
      const bluetooth = await this.usableBluetooth();
      return bluetooth.getDevices ? await bluetooth.getDevices() : [];
    } catch (failure) {
      throw this.fail(failure);
    }
  }

  /**
   * Scans with the browser's chooser (needs a click) and connects to the device picked. Resolves with
   * the device's name, or null when the chooser was closed without a choice.
   */
  async connect(): Promise<string | null> {
    const attempt = ++this.attempt;
    let device: BluetoothDeviceLike;
    try {
      const bluetooth = await this.usableBluetooth();
      this.setState({ state: 'connecting', deviceName: this.current.state === 'disconnected' ? null : this.current.deviceName });
      device = await bluetooth.requestDevice(REQUEST_OPTIONS);
    } catch (failure) {
      if (attempt === this.attempt) this.restore();
      if (isCancelled(failure)) return null;
      throw this.fail(failure);
    }
    if (attempt !== this.attempt) return null;
    return this.connectTo(device, attempt);
  }

  /**
   * Connects to a device already chosen (one of devices()). Resolves with its name, or null when a
   * disconnect() or another connect overtook this one.
   */
  async connectTo(device: BluetoothDeviceLike, attempt = ++this.attempt): Promise<string | null> {
    const deviceName = device.name ?? '';
    this.release();
    this.setState({ state: 'connecting', deviceName });
    try {
      if (!device.gatt) throw new Error(`${deviceName || 'This device'} has no GATT server`);
      device.addEventListener('gattserverdisconnected', this.onGattDisconnected);
      this.device = device;
      const server = await device.gatt.connect();
      const characteristic = await findCharacteristic(server, deviceName);
      if (attempt !== this.attempt || this.device !== device) {
        this.drop(device);
        return null;
      }
      this.characteristic = characteristic;
      this.queue = Promise.resolve();
      this.setState({ state: 'connected', deviceName });
      this.dispatch('connected', { deviceName });
      return deviceName;
    } catch (failure) {
      if (attempt !== this.attempt || this.device !== device) {
        this.drop(device);
        return null;
      }
      this.release();
      this.clear();
      throw this.fail(failure);
    }
  }

  /** Ends the connection (or the attempt under way). */
  disconnect(): void {
    this.attempt++;
    const wasConnected = this.current.state !== 'disconnected';
    const deviceName = this.current.deviceName ?? '';
    this.release();
    this.clear();
    if (wasConnected) this.dispatch('disconnected', { deviceName, reason: 'user' });
  }

  /** Writes one command byte: 'Not connected' unless connected. */
  async send(command: BeeperCommand): Promise<void> {
    const target = this.characteristic;
    if (!target || this.current.state !== 'connected') throw this.fail(new Error(NOT_CONNECTED));
    const run = this.queue.then(() => writeCommand(target, command));
    this.queue = run.catch(() => undefined);
    try {
      await run;
    } catch (failure) {
      throw this.fail(failure);
    }
  }

  beep(): Promise<void> {
    return this.send(BEEPER_COMMANDS.beep);
  }

  stop(): Promise<void> {
    return this.send(BEEPER_COMMANDS.stop);
  }

  /** A short beep: beep, then stop after `ms` (unless the connection changed meanwhile). */
  async chirp(ms = 300): Promise<void> {
    const target = this.characteristic;
    await this.beep();
    await new Promise((resolve) => setTimeout(resolve, ms));
    if (this.characteristic === target && this.connected) await this.stop();
  }

  override addEventListener<K extends keyof BeeperEventMap>(
    type: K,
    listener: BeeperListener<K> | null,
    options?: boolean | AddEventListenerOptions,
  ): void;
  override addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: boolean | AddEventListenerOptions,
  ): void;
  override addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: boolean | AddEventListenerOptions,
  ) {
    super.addEventListener(type, listener, options);
  }

  override removeEventListener<K extends keyof BeeperEventMap>(
    type: K,
    listener: BeeperListener<K> | null,
    options?: boolean | EventListenerOptions,
  ): void;
  override removeEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: boolean | EventListenerOptions,
  ): void;
  override removeEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: boolean | EventListenerOptions,
  ) {
    super.removeEventListener(type, listener, options);
  }

  private async usableBluetooth(): Promise<BluetoothLike> {
    const bluetooth = this.bluetooth();
    if (!bluetooth || !(await this.available())) throw new Error(BLUETOOTH_UNAVAILABLE);
    return bluetooth;
  }

  /** Forgets the device: stops listening to it and closes its GATT connection. */
  private release(): void {
    const device = this.device;
    this.device = null;
    this.characteristic = null;
    if (!device) return;
    device.removeEventListener('gattserverdisconnected', this.onGattDisconnected);
    if (device.gatt?.connected) device.gatt.disconnect();
  }

  /** Lets go of a device whose connection was overtaken (unless it is the current one again). */
  private drop(device: BluetoothDeviceLike): void {
    if (this.device === device) return;
    device.removeEventListener('gattserverdisconnected', this.onGattDisconnected);
    if (device.gatt?.connected) device.gatt.disconnect();
  }

  /** Back to the state before a connect that did not get as far as a device. */
  private restore(): void {
    if (this.characteristic && this.device) this.setState({ state: 'connected', deviceName: this.device.name ?? '' });
    else this.clear();
  }

  private clear(): void {
    if (this.device) this.device.removeEventListener('gattserverdisconnected', this.onGattDisconnected);
    this.device = null;
    this.characteristic = null;
    this.setState(DISCONNECTED);
  }

  private setState(next: BeeperSnapshot): void {
    if (next.state === this.current.state && next.deviceName === this.current.deviceName) return;
    this.current = next;
    this.dispatch('state', next);
  }

  private dispatch<K extends keyof BeeperEventMap>(type: K, detail: BeeperEventMap[K]['detail']): void {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }

  /** Logs the error and emits it as an 'error' event; returns it for the caller to throw. */
  private fail(failure: unknown): Error {
    const error = asError(failure);
    console.error('Bluetooth beeper:', error);
    this.dispatch('error', error);
    return error;
  }
}
