// A deployment as docs/deploy.md describes it, on this machine and as any user: the built app started the way the
// documented systemd unit starts it, with the documented environment, behind a real nginx running the documented
// site configuration (a temporary prefix, free ports, a self-signed certificate), on a throwaway PostgreSQL.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort, repoRoot } from './kabari-server';

export const deployDocPath = path.join(repoRoot, 'docs/deploy.md');
const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

export interface DeployDoc {
  /** The variables of /etc/kabari/kabari.env (commented-out lines left out). */
  environment: Record<string, string>;
  /** The unit's ExecStart, split into words. */
  execStart: string[];
  /** /etc/nginx/sites-available/kabari. */
  nginxSite: string;
}

/** The blocks of docs/deploy.md the deployment is made of; a missing one fails with what to look for. */
export function readDeployDoc(): DeployDoc {
  const markdown = fs.readFileSync(deployDocPath, 'utf8');
  const blocks = [...markdown.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map(([, language, body]) => ({
    language: language ?? '',
    body: body ?? '',
  }));
  const named = (firstLine: string) => {
    const block = blocks.find((candidate) => candidate.body.split('\n', 1)[0] === firstLine);
    if (!block) throw new Error(`docs/deploy.md has no code block starting with "${firstLine}"`);
    return block.body;
  };
  const environment: Record<string, string> = {};
  for (const line of named('# /etc/kabari/kabari.env').split('\n')) {
    const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (match) environment[match[1]!] = match[2]!.replace(/^"(.*)"$/, '$1');
  }
  const execLine = named('# /etc/systemd/system/kabari.service')
    .split('\n')
    .find((line) => line.startsWith('ExecStart='));
  if (!execLine) throw new Error('the kabari.service unit in docs/deploy.md has no ExecStart');
  const nginx = blocks.filter((block) => block.language === 'nginx');
  if (nginx.length !== 1) throw new Error(`docs/deploy.md should hold one nginx block, not ${nginx.length}`);
  return {
    environment,
    execStart: execLine.slice('ExecStart='.length).trim().split(/\s+/),
    nginxSite: nginx[0]!.body,
  };
}

/**
 * The documented site with only what a test machine needs changed: the ports, the certificate and the app's
 * address. Each is replaced where the page writes it; if the page no longer does, this fails rather than test a
 * configuration nobody documented.
 */
export function adaptNginxSite(
  site: string,
  ports: { http: number; https: number; app: number },
  files: { certificate: string; key: string; webroot: string },
): string {
  const replacements: [string, string][] = [
    ['listen 443 ssl;', `listen 127.0.0.1:${ports.https} ssl;`],
    ['listen 80;', `listen 127.0.0.1:${ports.http};`],
    ['/etc/letsencrypt/live/kabari.example.com/fullchain.pem', files.certificate],
    ['/etc/letsencrypt/live/kabari.example.com/privkey.pem', files.key],
    ['http://127.0.0.1:8080', `http://127.0.0.1:${ports.app}`],
    ['root /var/www/html;', `root ${files.webroot};`],
  ];
  let adapted = site;
  for (const [from, to] of replacements) {
    if (!adapted.includes(from)) {
      throw new Error(`docs/deploy.md's nginx site no longer says "${from}": update e2e/support/deployment.ts`);
    }
    adapted = adapted.split(from).join(to);
  }
  return adapted;
}

async function waitUntil(what: string, check: () => Promise<boolean>, failed: () => string | null, ms = 120_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const failure = failed();
    if (failure) throw new Error(failure);
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${what} did not come up within ${ms / 1000} s`);
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

export interface Process {
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

function track(child: ChildProcess): Process {
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return {
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Starts `node <script>` from the repository root with exactly `env` (plus PATH), as systemd would. */
export function startNode(script: string[], env: Record<string, string>): Process {
  const child = spawn(process.execPath, script, {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return track(child);
}

/** Waits for `/healthz` on 127.0.0.1:port, failing at once if the process exits. */
export async function waitForApp(app: Process, port: number): Promise<void> {
  await waitUntil(
    'The app',
    async () => {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/healthz`);
        // Read, so that the connection is free again rather than held by an unread body.
        await response.arrayBuffer();
        return response.ok;
      } catch {
        return false;
      }
    },
    () => (app.child.exitCode === null ? null : `The app exited with ${app.child.exitCode}:\n${app.output()}`),
  );
}

/**
 * The exit code and output of a process expected to stop by itself (a refused configuration). One still running
 * after `ms` is stopped, and its code is null.
 */
export function exitOf(app: Process, ms = 30_000): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      resolve({ code: app.child.exitCode, output: app.output() });
    };
    const timer = setTimeout(() => void app.stop(), ms);
    if (app.child.exitCode !== null) done();
    else app.child.once('close', done);
  });
}

export interface Nginx {
  stop: () => Promise<void>;
  errorLog: () => string;
  /**
   * Every log nginx has written, by file name: `error.log`, `access.log` (the one Debian's nginx.conf sets for
   * every site that names none) and the ones the site names (in /var/log/nginx on the machine, here in the folder).
   */
  logs: () => Record<string, string>;
}

/**
 * nginx in a folder of its own: the documented site inside the http block Debian's nginx.conf would give it (the
 * parts that matter here: gzip on, sendfile, the default access log), single-process (no switch to another user,
 * so it runs as root or not), logs and temporary files in the folder.
 */
export async function startNginx(folder: string, site: string, httpsPort: number): Promise<Nginx> {
  if (!fs.existsSync(NGINX)) {
    throw new Error(`nginx is not installed at ${NGINX} (apt-get install nginx; .ci/run installs it)`);
  }
  const errorLog = path.join(folder, 'error.log');
  const conf = path.join(folder, 'nginx.conf');
  fs.writeFileSync(
    conf,
    `daemon off;
master_process off;
worker_processes 1;
pid ${folder}/nginx.pid;
error_log ${errorLog} warn;
events { worker_connections 256; }
http {
  sendfile on;
  tcp_nopush on;
  default_type application/octet-stream;
  gzip on;
  access_log ${folder}/access.log;
  client_body_temp_path ${folder}/client_body;
  proxy_temp_path ${folder}/proxy;
  fastcgi_temp_path ${folder}/fastcgi;
  uwsgi_temp_path ${folder}/uwsgi;
  scgi_temp_path ${folder}/scgi;
${site.split('/var/log/nginx/').join(`${folder}/`)}
}
`,
  );
  const args = ['-p', folder, '-c', conf, '-e', errorLog];
  try {
    execFileSync(NGINX, ['-t', ...args], { stdio: 'pipe' });
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? String(error);
    throw new Error(`nginx refused the documented configuration:\n${stderr}`, { cause: error });
  }
  const nginx = track(spawn(NGINX, args, { stdio: ['ignore', 'pipe', 'pipe'] }));
  const readLog = () => (fs.existsSync(errorLog) ? fs.readFileSync(errorLog, 'utf8') : '');
  await waitUntil(
    'nginx',
    () => accepts(httpsPort),
    () => (nginx.child.exitCode === null ? null : `nginx exited with ${nginx.child.exitCode}:\n${readLog()}`),
    20_000,
  );
  const logs = () =>
    Object.fromEntries(
      fs
        .readdirSync(folder)
        .filter((name) => name.endsWith('.log'))
        .map((name) => [name, fs.readFileSync(path.join(folder, name), 'utf8')]),
    );
  return { stop: nginx.stop, errorLog: readLog, logs };
}

export interface HttpsAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * One request to nginx, trusting the test's own certificate only, on a connection of its own: none is left in a
 * pool for an instance's death or nginx's shutdown to reset later. A failure names the request.
 */
export function httpsRequest(
  url: string,
  ca: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<HttpsAnswer> {
  const method = options.method ?? 'GET';
  return new Promise((resolve, reject) => {
    const fail = (error: Error) => reject(new Error(`${method} ${url}: ${error.message}`, { cause: error }));
    const request = https.request(
      url,
      { method, headers: options.headers, ca, servername: 'localhost', agent: false },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('error', fail);
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      },
    );
    request.on('error', fail);
    request.end(options.body);
  });
}

export interface StreamEvent {
  /** The `id:` line (what a reconnect sends back as Last-Event-ID), '' when none. */
  id: string;
  event: string;
  data: string;
  receivedAt: number;
}

export interface EventStream {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Resolves with the first event that matches, as soon as it arrives; rejects after `ms`. */
  next: (match: (event: StreamEvent) => boolean, ms: number) => Promise<StreamEvent>;
  /** Every event received so far, in order. */
  received: () => StreamEvent[];
  close: () => void;
}

/**
 * A Server-Sent Events stream through nginx, parsed as the bytes arrive. A proxy that buffers the stream holds
 * back even its headers: rejects when they take longer than `ms`.
 */
export function openEventStream(
  url: string,
  ca: string,
  headers: Record<string, string>,
  ms = 10_000,
): Promise<EventStream> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      request.destroy();
      reject(new Error(`the event stream sent no response within ${ms} ms: is the proxy buffering it?`));
    }, ms);
    const request = https.get(
      url,
      { headers: { accept: 'text/event-stream', ...headers }, ca, servername: 'localhost', agent: false },
      (response) => {
        clearTimeout(timer);
        response.setEncoding('utf8');
        // The stream ends when its instance dies, and a test may close it: neither is a failure of the test.
        response.on('error', () => undefined);
        const events: StreamEvent[] = [];
        const waiting = new Set<() => void>();
        let buffer = '';
        response.on('data', (chunk: string) => {
          buffer += chunk;
          let end = buffer.indexOf('\n\n');
          while (end >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            end = buffer.indexOf('\n\n');
            const field = (name: string) =>
              frame
                .split('\n')
                .filter((line) => line.startsWith(`${name}:`))
                .map((line) => line.slice(name.length + 1).trimStart())
                .join('\n');
            if (frame.split('\n').some((line) => line.startsWith('data:'))) {
              events.push({
                id: field('id'),
                event: field('event') || 'message',
                data: field('data'),
                receivedAt: Date.now(),
              });
            }
          }
          for (const wake of waiting) wake();
        });
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          next: (match, ms) =>
            new Promise((found, fail) => {
              const check = () => {
                const event = events.find(match);
                if (!event) return;
                clearTimeout(timer);
                waiting.delete(check);
                found(event);
              };
              const timer = setTimeout(() => {
                waiting.delete(check);
                fail(new Error(`no matching event within ${ms} ms; received: ${JSON.stringify(events)}`));
              }, ms);
              waiting.add(check);
              check();
            }),
          received: () => [...events],
          close: () => request.destroy(),
        });
      },
    );
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`the event stream ${url}: ${error.message}`, { cause: error }));
    });
  });
}

/** This machine's first address other machines could use, if it has one. */
export function externalAddress(): string | undefined {
  for (const addresses of Object.values(os.networkInterfaces())) {
    for (const address of addresses ?? []) if (!address.internal && address.family === 'IPv4') return address.address;
  }
  return undefined;
}

/** Whether a TCP connection to address:port succeeds. */
export function connects(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: address, port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

export { freePort };
