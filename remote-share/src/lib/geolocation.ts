/** Why the browser gave no position: the four cases, each with its message. */
export type GeolocationFailure = 'unsupported' | 'denied' | 'failed' | 'disabled';

export const geolocationFailures: GeolocationFailure[] = ['unsupported', 'denied', 'failed', 'disabled'];

export class GeolocationError extends Error {
  constructor(readonly reason: GeolocationFailure) {
    super(reason);
    this.name = 'GeolocationError';
  }
}

export function failureOf(error: GeolocationPositionError): GeolocationFailure {
  if (error.code === error.PERMISSION_DENIED) return 'denied';
  // POSITION_UNAVAILABLE: the device has no position to give, most often because location is turned off.
  if (error.code === error.POSITION_UNAVAILABLE) return 'disabled';
  return 'failed';
}

/** One position from the browser, which asks the recipient's permission the first time. */
export function currentPosition(): Promise<GeolocationPosition> {
  return new Promise((resolve, reject) => {
    if (typeof navigator === 'undefined' || !navigator.geolocation) {
      reject(new GeolocationError('unsupported'));
      return;
    }
    navigator.geolocation.getCurrentPosition(resolve, (error) => reject(new GeolocationError(failureOf(error))), {
      enableHighAccuracy: true,
      timeout: 20_000,
      maximumAge: 30_000,
    });
  });
}

/** The body of POST …/positions for a browser position. */
export function positionBody(position: GeolocationPosition) {
  return {
    latitude: position.coords.latitude,
    longitude: position.coords.longitude,
    accuracy: position.coords.accuracy,
    recordedAt: new Date(position.timestamp || Date.now()).toISOString(),
  };
}
