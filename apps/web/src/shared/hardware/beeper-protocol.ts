/**
 * The beeper's protocol over Web Bluetooth (docs/web-app.md#hardware-the-bluetooth-beeper): the two
 * services it may offer, each with one characteristic that takes a one-byte command (2 beeps, 0 stops),
 * the part of Web Bluetooth used, the chooser's request, and the write of one command. No state: the
 * connection is `beeper.ts`.
 */

/** The Immediate Alert service (0x1802) with its Alert Level (0x2A06), tried first; then 0xFFE0 with 0xFFE1. */
export const BEEPER_PROFILES = [
  { service: 6146, characteristic: 10758 },
  { service: 65504, characteristic: 65505 },
] as const;

export const BEEPER_COMMANDS = { beep: 2, stop: 0 } as const;
export type BeeperCommand = (typeof BEEPER_COMMANDS)[keyof typeof BEEPER_COMMANDS];

export const NOT_CONNECTED = 'Not connected';
export const BLUETOOTH_UNAVAILABLE = 'Bluetooth unavailable';

// The part of Web Bluetooth used here (TypeScript's DOM library has no Web Bluetooth types).
export interface BluetoothCharacteristicLike {
  readonly properties?: { readonly write?: boolean; readonly writeWithoutResponse?: boolean };
  writeValueWithResponse?(value: BufferSource): Promise<void>;
  writeValueWithoutResponse?(value: BufferSource): Promise<void>;
  writeValue?(value: BufferSource): Promise<void>;
}

export interface BluetoothServiceLike {
  getCharacteristic(characteristic: number): Promise<BluetoothCharacteristicLike>;
}

export interface BluetoothServerLike {
  readonly connected: boolean;
  connect(): Promise<BluetoothServerLike>;
  disconnect(): void;
  getPrimaryService(service: number): Promise<BluetoothServiceLike>;
}

export interface BluetoothDeviceLike extends EventTarget {
  readonly id: string;
  readonly name?: string | null;
  readonly gatt?: BluetoothServerLike | null;
}

export interface BluetoothRequestOptions {
  filters: { services: number[] }[];
  optionalServices: number[];
}

export interface BluetoothLike {
  getAvailability?(): Promise<boolean>;
  requestDevice(options: BluetoothRequestOptions): Promise<BluetoothDeviceLike>;
  getDevices?(): Promise<BluetoothDeviceLike[]>;
}

/** This browser's Web Bluetooth, if it has one. */
export function webBluetooth(): BluetoothLike | undefined {
  const nav = (globalThis as { navigator?: { bluetooth?: BluetoothLike } }).navigator;
  return nav?.bluetooth ?? undefined;
}

/** The request for the chooser: a device with either service, and access to both. */
export const REQUEST_OPTIONS: BluetoothRequestOptions = {
  filters: BEEPER_PROFILES.map((p) => ({ services: [p.service] })),
  optionalServices: BEEPER_PROFILES.map((p) => p.service),
};

/** One write of a one-byte command, with response when the characteristic offers it. */
export function writeCommand(target: BluetoothCharacteristicLike, command: BeeperCommand): Promise<void> {
  const value = Uint8Array.of(command);
  const { write: withResponse, writeWithoutResponse } = target.properties ?? {};
  if (writeWithoutResponse && !withResponse && target.writeValueWithoutResponse) return target.writeValueWithoutResponse(value);
  if (target.writeValueWithResponse) return target.writeValueWithResponse(value);
  if (target.writeValue) return target.writeValue(value);
  if (target.writeValueWithoutResponse) return target.writeValueWithoutResponse(value);
  return Promise.reject(new Error('The beeper cannot be written to'));
}

/** The first of the beeper's services the device has, with its characteristic. */
export async function findCharacteristic(server: BluetoothServerLike, deviceName: string): Promise<BluetoothCharacteristicLike> {
  for (const profile of BEEPER_PROFILES) {
    let service: BluetoothServiceLike;
    try {
      service = await server.getPrimaryService(profile.service);
    } catch {
      continue;
    }
    try {
      return await service.getCharacteristic(profile.characteristic);
    } catch {
      continue;
    }
  }
  throw new Error(`${deviceName || 'This device'} is not a beeper this page knows (no alert service found)`);
}

/** Whether the person closed the chooser without a choice. */
export function isCancelled(failure: unknown): boolean {
  // Chromium rejects requestDevice with NotFoundError when the person closes the chooser.
  return failure instanceof Error && failure.name === 'NotFoundError';
}
