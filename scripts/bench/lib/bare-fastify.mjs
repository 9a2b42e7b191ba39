// The reference the app's throughput is compared with: a bare Fastify server (no plugins, no logger, no database)
// answering one small JSON body, in a process of its own on the port given as the first argument.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/healthz', async () => ({ status: 'ok' }));
await app.listen({ port: Number(process.argv[2]), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
