import { useMemo } from 'react';
import { create } from 'qrcode';

/** The blank margin a scanner needs around the code, in modules (the QR standard's quiet zone). */
const quietZone = 4;

/**
 * A QR code drawn as SVG from its text: sharp at any size and zoom, and printed as it is shown. The modules come from
 * `qrcode` (the encoding, the error correction and the mask); the drawing is one path of the dark modules.
 */
export function QrCode({ text, label }: { text: string; label: string }) {
  const { size, path } = useMemo(() => {
    const { modules } = create(text, { errorCorrectionLevel: 'M' });
    let d = '';
    for (let y = 0; y < modules.size; y += 1) {
      for (let x = 0; x < modules.size; x += 1) {
        if (modules.get(y, x)) d += `M${x + quietZone} ${y + quietZone}h1v1h-1z`;
      }
    }
    return { size: modules.size + quietZone * 2, path: d };
  }, [text]);
  return (
    <svg
      className="local-payment__qr"
      role="img"
      aria-label={label}
      viewBox={`0 0 ${size} ${size}`}
      shapeRendering="crispEdges"
      xmlns="http://www.w3.org/2000/svg"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
