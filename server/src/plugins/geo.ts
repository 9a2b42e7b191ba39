import fp from 'fastify-plugin';
import type { Config } from '../config';
import { lookupIp, type IpPlace } from '../geo/ip-location';
import { createReverseGeocoder, type ReverseGeocoder } from '../geo/reverse-geocode';

declare module 'fastify' {
  interface FastifyInstance {
    geo: {
      /** The approximate place of an IP address from the bundled DB-IP Lite database (CC BY 4.0). */
      lookupIp(ip: string): IpPlace | null;
      reverseGeocoder: ReverseGeocoder;
    };
  }
}

/** IP → place and position → address. The bundled data loads on first use, not at start. */
export default fp(
  async (app, options: { config: Config }) => {
    const { nominatimUrl, publicUrl } = options.config;
    const reverseGeocoder = nominatimUrl
      ? createReverseGeocoder({
          url: nominatimUrl,
          // Nominatim's policy asks for an application name and a way to reach its operator.
          userAgent: `Kabari/0.1 (+${publicUrl})`,
          keySecret: app.auth.secrets.hmacSecret,
          db: app.db,
          log: app.log,
        })
      : createReverseGeocoder({ url: undefined, log: app.log });
    app.decorate('geo', { lookupIp, reverseGeocoder });
  },
  { name: 'geo', dependencies: ['database', 'auth'] },
);
