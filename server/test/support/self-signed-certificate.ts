import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * A certificate for localhost and 127.0.0.1 (a P-256 key), valid for two days, made with openssl in `folder`: for
 * the test servers that speak TLS (a push service, nginx in front of Kabari).
 */
export function selfSignedCertificate(folder: string): { certificate: string; key: string; pem: string } {
  const certificate = path.join(folder, 'localhost.crt');
  const key = path.join(folder, 'localhost.key');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      certificate,
    ],
    { stdio: 'pipe' },
  );
  return { certificate, key, pem: fs.readFileSync(certificate, 'utf8') };
}
