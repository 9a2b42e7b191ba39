import { useCallback, useEffect, useRef, useState } from 'react';

/** The longest recording: the recorder stops itself here (the server takes at most a minute). */
export const VOICE_MAX_MS = 60_000;

export type RecorderState =
  | { kind: 'idle' }
  /** Waiting for the browser's microphone prompt. */
  | { kind: 'asking' }
  | { kind: 'recording'; elapsedMs: number; level: number }
  /** The browser or the person refused the microphone. */
  | { kind: 'denied' }
  /** No microphone, or it could not be opened. */
  | { kind: 'noMicrophone' };

/** Whether this browser can record here (MediaRecorder and a microphone API, on a secure page). */
export function canRecord(): boolean {
  return (
    typeof window !== 'undefined' &&
    typeof window.MediaRecorder === 'function' &&
    typeof navigator.mediaDevices?.getUserMedia === 'function'
  );
}

/**
 * Records a voice message with the browser's MediaRecorder, in whatever format the browser records. The microphone is
 * asked for only by `start` (the person pressed Record) and released as soon as recording stops. While recording, the
 * elapsed time and the input level (0 to 1) are reported a few times a second; at VOICE_MAX_MS it stops itself.
 * `onRecorded` gets each finished recording.
 */
export function useVoiceRecorder(onRecorded: (recording: Blob) => void, maxMs = VOICE_MAX_MS) {
  const [state, setState] = useState<RecorderState>({ kind: 'idle' });
  const onRecordedRef = useRef(onRecorded);
  useEffect(() => {
    onRecordedRef.current = onRecorded;
  });
  const stopRef = useRef<(() => void) | null>(null);
  // The recording under way: one started again meanwhile, or left on unmount, comes back as nothing.
  const currentRef = useRef<object | null>(null);

  // Whatever is open when the component goes away is closed: microphone, audio graph, timers.
  useEffect(
    () => () => {
      currentRef.current = null;
      stopRef.current?.();
    },
    [],
  );

  const start = useCallback(async () => {
    stopRef.current?.();
    const session = {};
    currentRef.current = session;
    setState({ kind: 'asking' });
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (error) {
      if (currentRef.current !== session) return;
      const name = (error as { name?: string }).name;
      setState({ kind: name === 'NotAllowedError' || name === 'SecurityError' ? 'denied' : 'noMicrophone' });
      return;
    }
    if (currentRef.current !== session) {
      stream.getTracks().forEach((track) => track.stop());
      return;
    }
    const recorder = new MediaRecorder(stream);
    const chunks: Blob[] = [];
    const startedAt = performance.now();
    const audio = new AudioContext();
    const analyser = audio.createAnalyser();
    analyser.fftSize = 512;
    audio.createMediaStreamSource(stream).connect(analyser);
    const samples = new Float32Array(analyser.fftSize);
    let closed = false;

    const close = () => {
      if (closed) return;
      closed = true;
      clearInterval(ticker);
      stream.getTracks().forEach((track) => track.stop());
      void audio.close().catch(() => undefined);
    };
    const ticker = setInterval(() => {
      const elapsedMs = performance.now() - startedAt;
      if (elapsedMs >= maxMs) {
        stop();
        return;
      }
      analyser.getFloatTimeDomainData(samples);
      let sum = 0;
      for (const sample of samples) sum += sample * sample;
      // Speech sits around 0.05–0.2 RMS: scaled so that talking fills most of the meter.
      const level = Math.min(1, Math.sqrt(sum / samples.length) * 5);
      setState({ kind: 'recording', elapsedMs, level });
    }, 100);
    const stop = () => {
      if (recorder.state !== 'inactive') recorder.stop();
      close();
    };

    recorder.addEventListener('dataavailable', (event) => {
      if (event.data.size > 0) chunks.push(event.data);
    });
    recorder.addEventListener('stop', () => {
      if (currentRef.current !== session) return;
      stopRef.current = null;
      setState({ kind: 'idle' });
      const blob = new Blob(chunks, { type: recorder.mimeType || chunks[0]?.type || 'audio/webm' });
      if (blob.size > 0) onRecordedRef.current(blob);
    });
    stopRef.current = stop;
    recorder.start(1000);
    setState({ kind: 'recording', elapsedMs: 0, level: 0 });
  }, [maxMs]);

  const stop = useCallback(() => stopRef.current?.(), []);
  return { state, start, stop };
}
