/**
 * PII redaction speed bench: runs `detectPII` over about 100 KB of the labelled corpus texts (every
 * set, repeated) in each mode, after a warm-up (compromise, the given-name gazetteer and the phone
 * metadata are loaded once per process), and prints the best of five runs in KB per CPU second and
 * the CPU time per detector in `accurate` mode. CPU time, not wall time: the machine is shared.
 * Run: bun bench/privacy/speed.ts [--detect path/to/detect.ts]
 */
import { resolve } from 'node:path';
import { PII_ENTITIES, type PiiMode } from '../../core/privacy/types.ts';
import type { Detector, Finding, PiiEntity } from '../../core/privacy/types.ts';
import { CORPUS_DIRS, loadCorpus } from '../../test/privacy/corpus.ts';

const args = process.argv.slice(2);
const at = args.indexOf('--detect');
const mod = (await import(at >= 0 ? resolve(args[at + 1]!) : '../../core/privacy/detect.ts')) as {
  detectPII(text: string, mode: PiiMode, entities: readonly PiiEntity[]): Finding[];
  DETECTORS: Detector[];
};
const texts = Object.values(CORPUS_DIRS).flatMap((d) => loadCorpus(d)).map((c) => c.text);
const batch: string[] = [];
for (let n = 0; n < 100_000; ) for (const t of texts) (batch.push(t), (n += t.length));
const kb = batch.reduce((n, t) => n + t.length, 0) / 1024;
for (const t of texts) mod.detectPII(t, 'aggressive', PII_ENTITIES); // warm-up

/**
 * Best of five runs, in CPU milliseconds of this process (user + system): on a shared machine the
 * wall clock mostly measures the other processes.
 */
function best(run: () => void): number {
  let ms = Infinity;
  for (let i = 0; i < 5; i++) {
    const t0 = process.cpuUsage();
    run();
    const d = process.cpuUsage(t0);
    ms = Math.min(ms, (d.user + d.system) / 1000);
  }
  return ms;
}

console.log(`${batch.length} texts, ${kb.toFixed(0)} KB`);
console.log('| mode | best CPU ms | KB/s of CPU time |\n|---|---:|---:|');
for (const mode of ['fast', 'accurate', 'aggressive'] as PiiMode[]) {
  const ms = best(() => batch.forEach((t) => mod.detectPII(t, mode, PII_ENTITIES)));
  console.log(`| ${mode} | ${ms.toFixed(0)} | ${(kb / (ms / 1000)).toFixed(0)} |`);
}
console.log('\naccurate, per detector:');
for (const d of mod.DETECTORS) console.log(`  ${d.type}: ${best(() => batch.forEach((t) => d.detect(t, 'accurate'))).toFixed(0)} ms`);
