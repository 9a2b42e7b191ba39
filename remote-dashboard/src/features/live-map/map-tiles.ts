import { fetchRuntimeConfig, type RuntimeConfig } from '@kabari/shared/config/runtime-config';

export type MapTiles = RuntimeConfig['map'];

let loading: Promise<MapTiles> | null = null;

/** The tile server the operator configured (TILE_URL, TILE_ATTRIBUTION), from /runtime-config.json; read once. */
export function loadMapTiles(): Promise<MapTiles> {
  loading ??= fetchRuntimeConfig().then(
    (config) => config.map,
    (error: unknown) => {
      // Forgotten, so the next map tries again.
      loading = null;
      throw error;
    },
  );
  return loading;
}
