/** What the scanner says when the camera cannot start, by the DOMException name getUserMedia gives. */
export function cameraErrorMessage(error: unknown): string {
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  switch (name) {
    case 'NotAllowedError':
    case 'SecurityError':
      return 'Camera access was refused. Allow the camera for this site in the browser (the icon beside the address), then press Start camera again.';
    case 'NotFoundError':
    case 'OverconstrainedError':
      return 'No camera was found. Connect a camera, or decode a photo with the barcode decoder.';
    case 'NotReadableError':
    case 'AbortError':
      return 'The camera could not be started: another app or tab may be using it.';
    default:
      return `The camera could not be started${error instanceof Error && error.message ? `: ${error.message}` : '.'}`;
  }
}

/** The video tracks's torch, where the camera has one (Chromium on Android phones). */
export function hasTorch(track: MediaStreamTrack): boolean {
  const capabilities = (track.getCapabilities?.() ?? {}) as MediaTrackCapabilities & { torch?: boolean };
  return capabilities.torch === true;
}

export function setTorch(track: MediaStreamTrack, on: boolean): Promise<void> {
  return track.applyConstraints({ advanced: [{ torch: on } as MediaTrackConstraintSet] });
}

/** A camera's label, or a numbered name before the user has allowed the camera (labels are hidden until then). */
export function cameraLabel(device: MediaDeviceInfo, index: number): string {
  return device.label || `Camera ${index + 1}`;
}
