// The verdict of one run across all its runners, read from Prometheus after the run. k6 evaluates thresholds in
// each runner on its own share of the load; with parallelism > 1 no runner sees the whole. The runners send every
// trend as a Prometheus native histogram (K6_PROMETHEUS_RW_TREND_AS_NATIVE_HISTOGRAM, remote-written with
// --tag testid=<run id>, one series per runner), cumulative from each runner's start: summed at the run's last sample
// they are the whole run's distribution, so its p95/p99 are exact to the histogram's resolution (buckets 2^(1/8)
// apart: within 9%), not the worst runner's bound, and the failed share is exact (the runners' request counters).
//
// The generator is judged before the system: each runner pod's CPU (the kubelet's cAdvisor,
// container_cpu_usage_seconds_total, as kube-prometheus-stack scrapes it) against its limit (RUNNER_CPU_LIMIT cores,
// or the container's CFS quota), peak over the run in CPU_WINDOW windows; the share of its CFS periods the kernel
// throttled it in over the whole run (container_cpu_cfs_throttled_periods_total / container_cpu_cfs_periods_total:
// the cgroup's own word that it wanted more CPU than its limit, which a rate of the usage can miss when a short run
// meets cAdvisor's ~10 s housekeeping); and the iterations k6 dropped. A runner above MAX_GENERATOR_CPU of its CPU or
// throttled in more than MAX_THROTTLED_SHARE of its periods, or drops while the runners' CPU is unknown, make the run inconclusive: no
// verdict about the system (k6 exits 108, the chart's test pod 75); drops with a healthy generator fail it (the
// system was late). Every verdict prints one `verdict: pass|fail|inconclusive (...)` line, as scripts/load/load.sh does.
// A run Prometheus never saw is an error (110), never a pass.
//
//   k6 run -e PROMETHEUS_URL=http://prometheus:9090 -e TESTID=r7 -e MAX_FAILED_SHARE=0.01 -e MAX_P95_SECONDS=0.5 \
//     [-e NAMESPACE=load -e RUNNER_PODS='r7-smoke-[0-9]+-.*' -e RUNNER_CPU_LIMIT=1 -e CPU_WINDOW=30s -e MAX_THROTTLED_SHARE=0.5] \
//     k6-tests/lib/verdict.js
import http from 'k6/http';
import { check } from 'k6';
import exec from 'k6/execution';

export const options = { vus: 1, iterations: 1, thresholds: { checks: ['rate==1'] } };

const PROMETHEUS_URL = (__ENV.PROMETHEUS_URL || 'http://127.0.0.1:9090').replace(/\/+$/, '');
const TESTID = __ENV.TESTID || '';
const WINDOW = __ENV.WINDOW || '6h';
const MAX_FAILED_SHARE = parseFloat(__ENV.MAX_FAILED_SHARE || '0.01');
const MAX_P95_SECONDS = parseFloat(__ENV.MAX_P95_SECONDS || '0.5');
const NAMESPACE = __ENV.NAMESPACE || '';
const RUNNER_PODS = __ENV.RUNNER_PODS || '';
const RUNNER_CPU_LIMIT = parseFloat(__ENV.RUNNER_CPU_LIMIT || '0');
// a rate needs two scrapes of the kubelet inside its window (kube-prometheus-stack scrapes it every 30 s)
const CPU_WINDOW = __ENV.CPU_WINDOW || '1m';
const MAX_GENERATOR_CPU = parseFloat(__ENV.MAX_GENERATOR_CPU || '0.8');
const MAX_THROTTLED_SHARE = parseFloat(__ENV.MAX_THROTTLED_SHARE || '0.5');

function query(expr, time) {
  const at = time === undefined ? '' : `&time=${time}`;
  const res = http.get(`${PROMETHEUS_URL}/api/v1/query?query=${encodeURIComponent(expr)}${at}`);
  if (res.status !== 200) {
    throw new Error(`Prometheus answered ${res.status || res.error} to ${expr}`);
  }
  return res.json().data.result;
}

function scalar(expr, time) {
  const result = query(expr, time);
  return result.length === 0 ? null : parseFloat(result[0].value[1]);
}

// the times of the run's first and last samples: every runner's cumulative series is read at the last
function span(run) {
  let first = null;
  let last = null;
  for (const series of query(`k6_http_reqs_total{${run}}[${WINDOW}]`)) {
    for (const [t] of series.values) {
      first = first === null ? t : Math.min(first, t);
      last = last === null ? t : Math.max(last, t);
    }
  }
  return [first, last];
}

function seconds(window) {
  const m = /^([0-9]+)(s|m)$/.exec(window);
  if (!m) throw new Error(`CPU_WINDOW must be like 30s or 1m, got "${window}"`);
  return Number(m[1]) * (m[2] === 'm' ? 60 : 1);
}

// the busiest runner's peak CPU over the run as a share of its limit, how many runner pods reported CPU at all, and
// the most throttled runner's share of throttled CFS periods over the run (nulls: not asked, or nothing known)
function generatorCpu(first, last) {
  if (!RUNNER_PODS) return [null, 0, null];
  // the pod's own cgroup (container=""): all of the runner pod, whatever its containers, and its pod-level quota
  const pods = `namespace="${NAMESPACE}",pod=~"${RUNNER_PODS}",container=""`;
  const by = 'namespace, pod';
  const usage = `max by (${by}) (rate(container_cpu_usage_seconds_total{${pods}}[${CPU_WINDOW}]))`;
  const limit = RUNNER_CPU_LIMIT > 0 ? `${RUNNER_CPU_LIMIT}`
    : `on (${by}) max by (${by}) (container_spec_cpu_quota{${pods}} / container_spec_cpu_period{${pods}})`;
  const range = Math.ceil(last - first) + seconds(CPU_WINDOW);
  const peak = scalar(`max(max_over_time((${usage} / ${limit})[${range}s:5s]))`, last);
  const reporting = scalar(`count(max by (pod) (max_over_time(container_cpu_usage_seconds_total{${pods}}[${range}s])))`, last);
  const cfs = (m) => `max by (${by}) (increase(${m}{${pods}}[${range}s]))`;
  const throttled = scalar(
    `max(${cfs('container_cpu_cfs_throttled_periods_total')} / (${cfs('container_cpu_cfs_periods_total')} > 0))`, last);
  return [peak, reporting || 0, throttled];
}

function inconclusive(why) {
  console.log(`verdict: inconclusive (${why})`);
  exec.test.abort(`verdict: inconclusive (${why}): no verdict about the system`);
}

export default function () {
  if (!/^[a-z0-9-]+$/.test(TESTID)) {
    exec.test.fail(`TESTID must be the run id (letters, digits, dashes), got "${TESTID}"`);
    return;
  }
  const run = `testid="${TESTID}"`;
  const [first, at] = span(run);
  if (at === null) {
    // an error of its own (k6 exits 110), never a pass: a run Prometheus has not seen says nothing
    exec.test.fail(`Prometheus at ${PROMETHEUS_URL} holds no run ${TESTID} in the last ${WINDOW}: no verdict`);
    return;
  }
  const requests = scalar(`sum(k6_http_reqs_total{${run}})`, at);
  const failed = scalar(`sum(k6_http_reqs_total{${run},expected_response="false"})`, at) || 0;
  const dropped = scalar(`sum(k6_dropped_iterations_total{${run}})`, at) || 0;
  const duration = `sum(k6_http_req_duration_seconds{${run}})`;
  const p95 = scalar(`histogram_quantile(0.95, ${duration})`, at);
  const p99 = scalar(`histogram_quantile(0.99, ${duration})`, at);
  const counted = scalar(`histogram_count(${duration})`, at);
  const runners = scalar(`count(count by (instance_id) (k6_http_reqs_total{${run}}))`, at);
  console.log(`run ${TESTID}: ${requests} requests from ${runners} runner(s), ${failed} failed, ` +
    `p95 ${p95} s and p99 ${p99} s of all ${counted} request durations (native histograms summed over runners)`);

  // the generator first: a starved one measured itself
  const [cpu, reporting, throttled] = generatorCpu(first, at);
  const cpuText = cpu === null
    ? (RUNNER_PODS ? `runners' CPU unknown (no cAdvisor series for pods ${RUNNER_PODS} in ${NAMESPACE}, or no CPU limit)`
      : "runners' CPU not asked (no RUNNER_PODS)")
    : `busiest runner at ${(cpu * 100).toFixed(0)}% of its CPU (${reporting} runner pod(s) reporting)`;
  const throttledText = throttled === null ? '' : `, most throttled in ${(throttled * 100).toFixed(0)}% of its CPU periods`;
  console.log(`generator: ${cpuText}${throttledText}, ${dropped} iteration(s) dropped`);
  if (cpu !== null && cpu > MAX_GENERATOR_CPU) {
    inconclusive(`a runner used ${(cpu * 100).toFixed(0)}% of its CPU, over ${MAX_GENERATOR_CPU * 100}%`);
    return;
  }
  if (throttled !== null && throttled > MAX_THROTTLED_SHARE) {
    inconclusive(`a runner was throttled in ${(throttled * 100).toFixed(0)}% of its CPU periods, over ${MAX_THROTTLED_SHARE * 100}%`);
    return;
  }
  if (dropped > 0 && cpu === null) {
    inconclusive(`${dropped} iteration(s) dropped and the runners' CPU is unknown`);
    return;
  }

  const checks = [
    check(requests, { 'the run sent requests that Prometheus received': (n) => n !== null && n > 0 }),
    check(counted, { 'every request has its duration in the histograms': (n) => n === requests }),
    check(requests === null ? 1 : failed / requests, {
      [`at most ${MAX_FAILED_SHARE * 100}% of all runners' requests failed`]: (share) => share <= MAX_FAILED_SHARE,
    }),
    check(p95, { [`the run's p95 is under ${MAX_P95_SECONDS} s`]: (v) => v !== null && v < MAX_P95_SECONDS }),
    check(dropped, { 'no iteration dropped while the generator kept up (the system was late)': (n) => n === 0 }),
  ];
  console.log(checks.every(Boolean) ? 'verdict: pass'
    : `verdict: fail (${dropped > 0 ? `${dropped} iteration(s) dropped with a healthy generator; ` : ''}see the failed checks)`);
}
