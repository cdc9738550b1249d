// Load profiles as code: every perflab scenario states its iteration rate and its SLO thresholds once, and picks
// the shape with PROFILE (smoke, average, stress, spike, soak). Arrival-rate executors throughout: the rate is what
// the system is offered, whatever its latency (a closed loop of VUs would slow down with the system under test).
//
// A warm-up scenario (WARMUP, default 5s at half the rate) runs first and is reported apart: thresholds apply to
// the main scenario only (`{scenario:main}` submetrics), so a cold JIT or an empty cache never decides a verdict.
//
//   RATE      iterations/s of the main stage (the script's own default otherwise)
//   DURATION  length of the main stage (per profile default)
//   WARMUP    warm-up length, 0s for none
//   PROFILE   smoke | average | stress | spike | soak

const SHAPES = {
  // a short, small, constant run: does every endpoint meet its SLO?
  smoke: (r, d) => ({ executor: 'constant-arrival-rate', rate: r, timeUnit: '1s', duration: d || '15s' }),
  // the expected day: ramp up, hold, ramp down
  average: (r, d) => ramp(r, [['30s', 1], [d || '5m', 1], ['30s', 0]]),
  // beyond the expected load in steps, to find where the SLO breaks
  stress: (r, d) => ramp(r, [['30s', 1], [d || '2m', 1], ['30s', 2], [d || '2m', 2], ['30s', 3], [d || '2m', 3], ['30s', 0]]),
  // a sudden burst of five times the rate, then back
  spike: (r, d) => ramp(r, [['10s', 1], [d || '1m', 1], ['5s', 5], ['30s', 5], ['5s', 1], [d || '1m', 1]]),
  // the expected load for a long time: leaks, pool exhaustion, growing queues
  soak: (r, d) => ({ executor: 'constant-arrival-rate', rate: r, timeUnit: '1s', duration: d || '1h' }),
};

function ramp(rate, stages) {
  return {
    executor: 'ramping-arrival-rate',
    startRate: 0,
    timeUnit: '1s',
    stages: stages.map(([duration, factor]) => ({ duration, target: Math.round(rate * factor) })),
  };
}

function seconds(d) {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(String(d));
  if (!m) throw new Error(`not a duration: ${d}`);
  return Number(m[1]) * { ms: 0.001, s: 1, m: 60, h: 3600 }[m[2] || 's'];
}

// Adds a tag filter (scenario:main by default) to every threshold's metric, keeping its own tag filters.
export function mainOnly(thresholds, tag = 'scenario:main') {
  const out = {};
  for (const [metric, rules] of Object.entries(thresholds)) {
    const m = /^([^{]+)(?:\{(.*)\})?$/.exec(metric);
    out[`${m[1]}{${m[2] ? `${m[2]},` : ''}${tag}}`] = rules;
  }
  return out;
}

function profile() {
  const name = __ENV.PROFILE || 'smoke';
  if (!SHAPES[name]) throw new Error(`PROFILE=${name}: one of ${Object.keys(SHAPES).join(', ')}`);
  return SHAPES[name];
}

const TREND_STATS = ['avg', 'min', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'];

// The VU budget of each main scenario beside what its SLO needs, read after the run (scripts/lib/generator.py): an
// arrival-rate executor drops iterations when every VU is busy, and whether that is the system's lateness or a
// budget too small to keep the rate at the SLO's latency decides between fail and inconclusive. MAX_VUS overrides
// every scenario's maxVUs.
const BUDGET = [];
export function vuBudget() {
  return BUDGET;
}

function sloMs(thresholds) {
  const limits = Object.values(thresholds).flat().map((rule) => /^p\(95\)\s*<=?\s*([\d.]+)$/.exec(String(rule).trim()))
    .filter((m) => m).map((m) => Number(m[1]));
  return limits.length ? Math.max(...limits) : null;
}

function peakRate(scenario) {
  return scenario.stages ? Math.max(...scenario.stages.map((s) => s.target)) : scenario.rate;
}

function budget(name, main, thresholds) {
  BUDGET.push({ scenario: name, peakRate: peakRate(main), maxVUs: main.maxVUs, sloMs: sloMs(thresholds) });
}

// One workload's scenarios at r iterations/s: its warm-up (WARMUP, at half the rate; none for 0s) and its main stage
// in the PROFILE's shape, started after the warm-up.
function phases(r, { vus, maxVUs, exec }) {
  const warmup = seconds(__ENV.WARMUP || '5s');
  const max = Number(__ENV.MAX_VUS || maxVUs);
  const vu = Object.assign({ preAllocatedVUs: Math.min(vus, max), maxVUs: Math.max(Math.min(vus, max), max) }, exec ? { exec } : {});
  const warm = warmup > 0 ? Object.assign({ executor: 'constant-arrival-rate', rate: Math.max(1, Math.round(r / 2)),
    timeUnit: '1s', duration: `${warmup}s`, tags: { phase: 'warmup' } }, vu) : null;
  const main = Object.assign(profile()(r, __ENV.DURATION), vu, { startTime: `${warmup}s`, tags: { phase: 'main' } });
  return { warm, main };
}

// options for a script: { rate, vus, maxVUs, thresholds } are the script's defaults (rate in iterations/s).
export function profileOptions({ rate, vus = 20, maxVUs = 100, thresholds = {}, exec }) {
  const { warm, main } = phases(Number(__ENV.RATE || rate), { vus, maxVUs, exec });
  const scenarios = warm ? { warmup: warm, main } : { main };
  budget('main', main, thresholds);
  return { scenarios, thresholds: mainOnly(thresholds), summaryTrendStats: TREND_STATS };
}

// options for several scenarios side by side, each at its own rate (a mixed day of many users):
// { mix: { <scenario>: { rate, exec } }, vus, maxVUs, thresholds }. RATE is a factor on every rate (1 by default);
// each scenario gets its warm-up (<scenario>_warmup) and the PROFILE's shape, and thresholds apply to the main
// phases only (`{phase:main}`).
export function mixOptions({ mix, vus = 5, maxVUs = 50, thresholds = {} }) {
  const factor = Number(__ENV.RATE || 1);
  const scenarios = {};
  for (const [name, { rate, exec }] of Object.entries(mix)) {
    const { warm, main } = phases(Math.max(1, Math.round(rate * factor)), { vus, maxVUs, exec });
    if (warm) scenarios[`${name}_warmup`] = warm;
    scenarios[name] = main;
    budget(name, main, thresholds);
  }
  return { scenarios, thresholds: mainOnly(thresholds, 'phase:main'), summaryTrendStats: TREND_STATS };
}
