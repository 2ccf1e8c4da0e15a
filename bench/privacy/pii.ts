/**
 * PII redaction bench: runs the detectors (core/privacy) over the labelled corpus in
 * test/privacy/corpus in each mode and prints precision and recall per entity class, plus the
 * throughput. `--verbose` lists false positives and misses.
 * `--set holdout|fresh|blind` scores the sets written after the detectors (see test/privacy/corpus.ts).
 * Run: bun bench/privacy/pii.ts [--set corpus|holdout|fresh|blind] [--mode accurate] [--verbose]
 */
import { detectPII } from '../../core/privacy/detect.ts';
import { PII_ENTITIES, type PiiMode } from '../../core/privacy/types.ts';
import { CORPUS_DIRS, loadCorpus, score } from '../../test/privacy/corpus.ts';

const args = process.argv.slice(2);
const verbose = args.includes('--verbose');
const only = args.includes('--mode') ? (args[args.indexOf('--mode') + 1] as PiiMode) : undefined;
const set = args.includes('--set') ? (args[args.indexOf('--set') + 1] as keyof typeof CORPUS_DIRS) : 'corpus';
const corpus = loadCorpus(CORPUS_DIRS[set]);
const chars = corpus.reduce((n, c) => n + c.text.length, 0);
console.log(`set: ${set} (test/privacy/${set})`);

for (const mode of only ? [only] : (['fast', 'accurate', 'aggressive'] as PiiMode[])) {
  const t0 = performance.now();
  const items = corpus.map((c) => ({ ...c, found: detectPII(c.text, mode, PII_ENTITIES) }));
  const ms = performance.now() - t0;
  const s = score(items);
  console.log(`\nmode ${mode}: ${corpus.length} texts, ${chars} chars, ${ms.toFixed(0)} ms`);
  console.log('| class | labelled | found | precision | recall |');
  console.log('|---|---:|---:|---:|---:|');
  for (const type of PII_ENTITIES) {
    const c = s[type];
    console.log(`| ${type} | ${c.gold} | ${c.found} | ${c.precision.toFixed(3)} | ${c.recall.toFixed(3)} |`);
  }
  if (verbose) {
    for (const type of PII_ENTITIES) {
      for (const fp of s[type].falsePositives) console.log(`  FP ${type}: ${JSON.stringify(fp)}`);
      for (const miss of s[type].misses) console.log(`  MISS ${type}: ${JSON.stringify(miss)}`);
    }
  }
}
