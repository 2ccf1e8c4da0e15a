/**
 * Debian's ffmpeg in a bounded subprocess, for the audio format: the input is a file Trawl fetched
 * itself (ffmpeg may open local files only: `-protocol_whitelist file`), the run is killed with its
 * whole process group when it passes its time limit or the scrape is aborted, the output may not
 * pass `maxBytes` (`-fs`; a file cut at the limit counts as a failure), and it runs on one thread.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface FfmpegLimits {
  /** The ffmpeg binary. */
  path: string;
  /** Longest run, ms. */
  timeoutMs: number;
  /** Largest output, bytes. */
  maxBytes: number;
  signal?: AbortSignal;
}

/** Why a conversion failed, in words for the document's warning. */
export class FfmpegFailure extends Error {}

/**
 * Converts a media file (any container ffmpeg reads) to MP3 (its first audio stream, 128 kb/s).
 * @returns the MP3 bytes
 * @throws FfmpegFailure when ffmpeg is missing, fails, times out, or its output reaches `maxBytes`
 */
export async function toMp3(input: Uint8Array, limits: FfmpegLimits): Promise<Uint8Array> {
  const dir = await mkdtemp(join(tmpdir(), 'trawl-media-'));
  try {
    const inPath = join(dir, 'in');
    const outPath = join(dir, 'out.mp3');
    await writeFile(inPath, input);
    const args = ['-nostdin', '-hide_banner', '-loglevel', 'error', '-protocol_whitelist', 'file', '-threads', '1', '-i', inPath,
      '-vn', '-map', '0:a:0', '-codec:a', 'libmp3lame', '-b:a', '128k', '-fs', String(limits.maxBytes), '-f', 'mp3', '-y', outPath];
    await run(limits, args);
    const size = (await stat(outPath)).size;
    if (size >= limits.maxBytes) throw new FfmpegFailure(`the MP3 reached the size limit of ${limits.maxBytes} bytes`);
    if (size === 0) throw new FfmpegFailure('ffmpeg wrote no audio');
    return new Uint8Array(await readFile(outPath));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function run(limits: FfmpegLimits, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(limits.path, args, { detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    let settled = false;
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      limits.signal?.removeEventListener('abort', onAbort);
      child.stderr?.destroy();
      if (error) reject(error);
      else resolve();
    };
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => {
      killGroup();
      finish(new FfmpegFailure(`ffmpeg did not finish within ${limits.timeoutMs} ms`));
    }, limits.timeoutMs);
    const onAbort = () => {
      killGroup();
      finish(new FfmpegFailure('the scrape ended before ffmpeg finished'));
    };
    limits.signal?.addEventListener('abort', onAbort, { once: true });
    child.stderr?.on('data', (chunk: Buffer) => {
      if (stderr.length < 2000) stderr += chunk.toString('utf8');
    });
    child.on('error', (e) => finish(new FfmpegFailure(`ffmpeg could not start (${e.message})`)));
    child.on('exit', (code, sig) => {
      if (code === 0) finish();
      else finish(new FfmpegFailure(`ffmpeg failed (${sig ?? `exit ${code}`}): ${stderr.trim().split('\n').slice(-1)[0] ?? ''}`.trim()));
    });
  });
}
