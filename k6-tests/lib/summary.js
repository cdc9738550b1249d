// handleSummary helpers without remote jslibs: a JSON file and a short human-readable report.
import { vuBudget } from './profiles.js';
function fmt(v) {
  return typeof v === 'number' ? (Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(2)) : String(v);
}

export function textReport(data, title) {
  const lines = [`\n${title}`, ''];
  const m = data.metrics;
  for (const name of Object.keys(m).sort()) {
    const v = m[name].values;
    const parts = Object.keys(v).map((k) => `${k}=${fmt(v[k])}`);
    const th = m[name].thresholds;
    let mark = '';
    if (th) {
      mark = Object.values(th).every((t) => t.ok) ? ' ✓' : ' ✗ THRESHOLD FAILED';
    }
    lines.push(`  ${name.padEnd(34)} ${parts.join(' ')}${mark}`);
  }
  return lines.join('\n') + '\n';
}

// SUMMARY_NAME overrides the script's name (an A/B run names its arms A and B).
export function summaries(data, scriptName) {
  const name = __ENV.SUMMARY_NAME || scriptName;
  const dir = __ENV.SUMMARY_DIR || '.';
  // what the generator had to keep the schedule with, for the verdict that reads the drops (scripts/lib/generator.py)
  data.perflab = { vuBudget: vuBudget() };
  return {
    stdout: textReport(data, name),
    [`${dir}/${name}-summary.json`]: JSON.stringify(data, null, 2),
    [`${dir}/${name}-summary.txt`]: textReport(data, name),
  };
}
