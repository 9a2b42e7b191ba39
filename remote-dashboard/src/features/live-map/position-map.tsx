import { useEffect, useRef, useState } from 'react';
import L from 'leaflet';
import { Circle, MapContainer, Marker, Polyline, TileLayer, useMap } from 'react-leaflet';
import type { Position } from '@kabari/shared/requests/location-request';
// Leaflet's stylesheet comes with this chunk only: the dashboard's first load does not pay for it.
import 'leaflet/dist/leaflet.css';
import { loadMapTiles, type MapTiles } from './map-tiles';

// An HTML marker: no image files to resolve, styled by live-map.css.
const markerIcon = L.divIcon({ className: 'live-map__marker', iconSize: [22, 22], iconAnchor: [11, 11] });

/** A zoom that shows the whole accuracy circle: a city for an IP location, streets for GPS. */
export function zoomFor(accuracyMeters: number | null): number {
  if (accuracyMeters === null) return 13;
  if (accuracyMeters <= 50) return 17;
  if (accuracyMeters <= 300) return 15;
  if (accuracyMeters <= 2_000) return 13;
  if (accuracyMeters <= 10_000) return 11;
  return 9;
}

// The brand green (design-tokens.css): Leaflet writes path colours as SVG attributes, so they are given here.
const GREEN = '#0b6e4f';
const accuracyStyle = { color: GREEN, weight: 1.5, fillColor: GREEN, fillOpacity: 0.12 };
const trailStyle = { color: GREEN, weight: 3, opacity: 0.6 };

/**
 * Keeps the latest position in view as new ones arrive (the first view is set by the map itself); zooms only when
 * the precision changes, so a requester's own zoom is kept while a live share moves.
 */
function FollowLatest({ latest }: { latest: Position }) {
  const map = useMap();
  const zoom = zoomFor(latest.accuracyMeters);
  const shown = useRef({ latitude: latest.latitude, longitude: latest.longitude, zoom });
  useEffect(() => {
    const previous = shown.current;
    if (previous.latitude === latest.latitude && previous.longitude === latest.longitude && previous.zoom === zoom) {
      return;
    }
    if (previous.zoom !== zoom) map.setView([latest.latitude, latest.longitude], zoom);
    else map.panTo([latest.latitude, latest.longitude]);
    shown.current = { latitude: latest.latitude, longitude: latest.longitude, zoom };
  }, [map, latest.latitude, latest.longitude, zoom]);
  return null;
}

export interface PositionMapProps {
  /** Oldest first; the last is the latest. */
  positions: Position[];
  label: string;
  markerTitle: string;
}

/** The Leaflet map: the latest position's marker and accuracy circle, and the trail of a live share. */
export default function PositionMap({ positions, label, markerTitle }: PositionMapProps) {
  const [tiles, setTiles] = useState<MapTiles | null>(null);
  useEffect(() => {
    let current = true;
    loadMapTiles().then(
      (loaded) => {
        if (current) setTiles(loaded);
      },
      // Without the configuration the marker still shows, on a blank background.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, []);

  const latest = positions.at(-1);
  if (!latest) return null;
  const center: [number, number] = [latest.latitude, latest.longitude];
  const trail = positions
    .filter((position) => position.source === 'gps')
    .map((position): [number, number] => [position.latitude, position.longitude]);
  // A live share opens on its whole trail; a single position on its accuracy.
  const view =
    trail.length > 1
      ? { bounds: L.latLngBounds(trail).pad(0.2), maxZoom: 18 }
      : { center, zoom: zoomFor(latest.accuracyMeters) };

  return (
    <div className="live-map__canvas" role="region" aria-label={label} data-testid="position-map">
      <MapContainer {...view} scrollWheelZoom={false}>
        {tiles && <TileLayer url={tiles.tileUrl} attribution={tiles.tileAttribution} />}
        {trail.length > 1 && <Polyline positions={trail} pathOptions={trailStyle} />}
        {latest.accuracyMeters !== null && latest.accuracyMeters > 0 && (
          <Circle center={center} radius={latest.accuracyMeters} pathOptions={accuracyStyle} />
        )}
        <Marker position={center} icon={markerIcon} title={markerTitle} alt={markerTitle} />
        <FollowLatest latest={latest} />
      </MapContainer>
    </div>
  );
}
