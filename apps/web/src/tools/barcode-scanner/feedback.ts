/**
 * The beep and buzz of a scan. The AudioContext is made on the user's click (Start camera), as browsers
 * only let sound start from a gesture; a short square tone at 1.8 kHz sounds like a shop scanner.
 */
export class ScanFeedback {
  private audio: AudioContext | undefined;

  unlock(): void {
    if (this.audio || typeof AudioContext === 'undefined') return;
    try {
      this.audio = new AudioContext();
    } catch {
      this.audio = undefined;
    }
  }

  beep(): void {
    const audio = this.audio;
    if (!audio) return;
    void audio.resume();
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.type = 'square';
    oscillator.frequency.value = 1800;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.12);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start();
    oscillator.stop(audio.currentTime + 0.12);
  }

  vibrate(): void {
    navigator.vibrate?.(80);
  }

  close(): void {
    void this.audio?.close();
    this.audio = undefined;
  }
}
