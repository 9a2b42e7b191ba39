// Small process helpers shared by the orchestration scripts.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import apps from '../../apps.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const { webApps } = apps;

/** Runs a command, streaming its output; resolves with the exit code. */
export function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit', cwd: repoRoot, ...options });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/**
 * Runs a command with its output going to `logFile` instead of the terminal (for a step that runs beside another
 * one, whose output would otherwise interleave). Resolves with the exit code and the seconds it took.
 */
export function runLogged(command, args, logFile, options = {}) {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const out = fs.openSync(logFile, 'w');
    const child = spawn(command, args, { stdio: ['ignore', out, out], cwd: repoRoot, ...options });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      fs.closeSync(out);
      resolve({ code: code ?? (signal ? 1 : 0), seconds: ((Date.now() - started) / 1000).toFixed(1) });
    });
  });
}

export async function runOrExit(label, command, args, options) {
  const started = Date.now();
  const code = await run(command, args, options);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (code !== 0) {
    console.error(`✗ ${label} failed (exit ${code}, ${seconds}s)`);
    process.exit(code);
  }
  console.log(`✓ ${label} (${seconds}s)`);
}

/** Runs async jobs with at most `limit` at once (the machines have 2 cores). */
export async function inPool(items, limit, job) {
  const queue = [...items];
  const workers = Array.from({ length: Math.min(limit, queue.length) }, async () => {
    while (queue.length) await job(queue.shift());
  });
  await Promise.all(workers);
}

export const nodeBin = process.execPath;
export const bin = (pkg, file) => path.join(repoRoot, 'node_modules', pkg, file);
