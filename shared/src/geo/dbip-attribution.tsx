// DB-IP Lite (CC BY 4.0) asks for a link back wherever a place found from an IP address is shown: the recipient's
// thank-you page, the requester's map and history. The server sends the same link (DBIP_ATTRIBUTION in
// server/src/geo/ip-location.ts, which builds without the shared workspace).
import type { ReactNode } from 'react';

export const DBIP_URL = 'https://db-ip.com/';

/** The credit link; the words are the caller's, in its own namespace and language. */
export function DbipAttribution({ children }: { children: ReactNode }) {
  return (
    <a href={DBIP_URL} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}
