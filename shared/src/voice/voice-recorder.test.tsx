import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { VoiceRecorder } from './voice-recorder';

// jsdom has no microphone, recorder or audio graph: small stand-ins that behave as the browser's do.

class FakeRecorder extends EventTarget {
  static last: FakeRecorder | null = null;
  state: 'inactive' | 'recording' = 'inactive';
  mimeType = 'audio/webm;codecs=opus';
  constructor() {
    super();
    FakeRecorder.last = this;
  }
  start() {
    this.state = 'recording';
  }
  stop() {
    this.state = 'inactive';
    const data = Object.assign(new Event('dataavailable'), { data: new Blob(['opus'], { type: this.mimeType }) });
    this.dispatchEvent(data);
    this.dispatchEvent(new Event('stop'));
  }
}

class FakeAudioContext {
  createAnalyser() {
    return {
      fftSize: 0,
      connect: () => undefined,
      getFloatTimeDomainData: (samples: Float32Array) => samples.fill(0.1),
    };
  }
  createMediaStreamSource() {
    return { connect: () => undefined };
  }
  close() {
    return Promise.resolve();
  }
}

const trackStopped = jest.fn();
const getUserMedia = jest.fn();

beforeEach(() => {
  trackStopped.mockReset();
  getUserMedia.mockReset();
  getUserMedia.mockResolvedValue({ getTracks: () => [{ stop: trackStopped }] });
  Object.assign(window, { MediaRecorder: FakeRecorder, AudioContext: FakeAudioContext });
  Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia } });
});

afterEach(() => {
  Reflect.deleteProperty(window, 'MediaRecorder');
  Reflect.deleteProperty(navigator, 'mediaDevices');
});

describe('the voice recorder', () => {
  it('asks for the microphone only on Record, sends the recording when it stops, and plays it back', async () => {
    const upload = jest.fn().mockResolvedValue({ durationMs: 12_000, src: '/api/v1/voice-notes/n1/audio' });
    render(<VoiceRecorder locale="en" upload={upload} />);
    expect(getUserMedia).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Record a voice message' }));
    await screen.findByRole('button', { name: 'Stop recording' });
    expect(getUserMedia).toHaveBeenCalledWith({ audio: true });
    expect(screen.getByText(/Recording… 0:00 of 1:00/)).toBeInTheDocument();
    expect(screen.getByRole('meter', { name: 'Microphone level' })).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Stop recording' }));
    await waitFor(() => expect(upload).toHaveBeenCalledTimes(1));
    expect((upload.mock.calls[0]![0] as Blob).type).toBe('audio/webm;codecs=opus');
    // The microphone is released as soon as recording stops.
    expect(trackStopped).toHaveBeenCalled();
    // The server's copy plays: the one that states its length, as the other side hears it.
    expect(await screen.findByLabelText('Listen to your voice message, 0:12')).toHaveAttribute(
      'src',
      '/api/v1/voice-notes/n1/audio',
    );
    expect(screen.getByRole('button', { name: 'Record again' })).toBeInTheDocument();
  });

  it('stops by itself at one minute', async () => {
    jest.useFakeTimers();
    try {
      const upload = jest.fn().mockResolvedValue({ durationMs: 60_000, src: '/api/v1/voice-notes/n1/audio' });
      render(<VoiceRecorder locale="en" upload={upload} />);
      fireEvent.click(screen.getByRole('button', { name: 'Record a voice message' }));
      await act(async () => undefined);
      expect(screen.getByRole('button', { name: 'Stop recording' })).toBeInTheDocument();
      await act(async () => jest.advanceTimersByTime(59_000));
      expect(screen.getByText('Recording… 0:59 of 1:00')).toBeInTheDocument();
      expect(upload).not.toHaveBeenCalled();
      await act(async () => jest.advanceTimersByTime(1_100));
      expect(upload).toHaveBeenCalledTimes(1);
      expect(FakeRecorder.last?.state).toBe('inactive');
      expect(trackStopped).toHaveBeenCalled();
    } finally {
      jest.useRealTimers();
    }
  });

  it.each([
    {
      locale: 'en',
      record: 'Record a voice message',
      says: /Kabari cannot use your microphone/,
      file: 'Or choose an audio file',
    },
    {
      locale: 'id',
      record: 'Rekam pesan suara',
      says: /Kabari tidak dapat memakai mikrofon Anda/,
      file: 'Atau pilih berkas audio',
    },
  ] as const)(
    'explains a refused microphone ($locale), and still offers a file',
    async ({ locale, record, says, file }) => {
      getUserMedia.mockRejectedValue(Object.assign(new Error('denied'), { name: 'NotAllowedError' }));
      render(<VoiceRecorder locale={locale} upload={jest.fn()} />);
      fireEvent.click(screen.getByRole('button', { name: record }));
      expect(await screen.findByRole('alert')).toHaveTextContent(says);
      expect(screen.getByLabelText(file)).toBeInTheDocument();
    },
  );

  it("sends a chosen file, and shows the server's refusal", async () => {
    const upload = jest.fn().mockRejectedValue(new Error('This file is not a voice message Kabari can play.'));
    render(<VoiceRecorder locale="en" upload={upload} />);
    const file = new File(['not audio'], 'note.webm', { type: 'audio/webm' });
    fireEvent.change(screen.getByLabelText('Or choose an audio file'), { target: { files: [file] } });
    expect(await screen.findByRole('alert')).toHaveTextContent('This file is not a voice message Kabari can play.');
    expect(upload).toHaveBeenCalledWith(file);
    expect(screen.queryByLabelText(/Listen to your voice message/)).not.toBeInTheDocument();
  });

  it('removes what was sent, and only offers a file where the browser cannot record', async () => {
    Reflect.deleteProperty(window, 'MediaRecorder');
    const remove = jest.fn().mockResolvedValue(undefined);
    render(
      <VoiceRecorder
        locale="en"
        upload={jest.fn()}
        remove={remove}
        initial={{ durationMs: 5_000, src: '/api/v1/voice-notes/n1/audio' }}
      />,
    );
    expect(screen.queryByRole('button', { name: /Record/ })).not.toBeInTheDocument();
    expect(screen.getByText(/This browser cannot record here/)).toBeInTheDocument();
    expect(screen.getByLabelText('Listen to your voice message, 0:05')).toBeInTheDocument();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Remove the voice message' })));
    expect(remove).toHaveBeenCalledTimes(1);
    expect(screen.queryByLabelText(/Listen to your voice message/)).not.toBeInTheDocument();
  });
});
