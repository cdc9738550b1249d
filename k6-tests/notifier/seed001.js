// Seed 001's profile through the gateway: guestbook signings at 50/s for a minute, 100/s for a minute, then a drain
// (the seed's third minute at 0/s). Each signing commits its entry and a PENDING SMS; the SMS (0.5 s at the local
// stack's tools/sms-sink) leaves after commit. The seed's start (perflab.notifier.dispatch=in-transaction-sync) ran
// 10 TPS, 557 ms average, 1,331 connection timeouts and 23% success; the SLO here is every signing 201 with p95
// within 100 ms, and after the drain no SMS delivered twice (SMS_SINK_URL: the endpoint's counts).
//
//   k6 run -e TOKEN=... -e SMS_SINK_URL=http://127.0.0.1:18086 k6-tests/notifier/seed001.js
//
// RATE, PEAK and STAGE (defaults 50, 100, 1m: the seed's) shorten or scale the profile for scripts/bench/bench-notifier.sh.
import http from 'k6/http';
import { check } from 'k6';
import { Counter } from 'k6/metrics';
import { requireService } from '../lib/config.js';
import { summaries } from '../lib/summary.js';
import { latency } from '../lib/thresholds.js';
import { drain, eventOfThisVu, notifierHeaders, sign, sinkCount } from './common.js';
import slo from './slo.js';

const signed = new Counter('notifier_signed');
// answers other than 201, by kind: 503 (the service found no pool connection, or the gateway no service), 504 (the
// gateway gave up waiting), anything else
const refused503 = new Counter('notifier_sign_503');
const timedOut504 = new Counter('notifier_sign_504');
const otherwise = new Counter('notifier_sign_other');

const RATE = Number(__ENV.RATE || 50);
const PEAK = Number(__ENV.PEAK || 100);
const STAGE = __ENV.STAGE || '1m';
const STAGE_SECONDS = ((m) => (m ? Number(m[1]) * (m[2] === 'm' ? 60 : 1) : 60))(/^(\d+)(s|m)?$/.exec(STAGE));

export const options = {
  scenarios: {
    seed001: {
      executor: 'ramping-arrival-rate',
      startRate: RATE,
      timeUnit: '1s',
      preAllocatedVUs: Math.ceil(RATE * 1.2),
      maxVUs: Math.max(200, PEAK * 2),
      stages: [
        { target: RATE, duration: `${STAGE_SECONDS}s` },
        { target: PEAK, duration: '1s' },
        { target: PEAK, duration: `${STAGE_SECONDS - 1}s` },
      ],
    },
  },
  thresholds: {
    ...latency(slo, ['sign']),
    'checks{check:signing is 201}': ['rate==1'],
    'http_req_failed{name:sign}': ['rate==0'],
    'checks{check:no SMS delivered twice}': ['rate==1'],
  },
  summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
  // the drain: teardown waits for the SMS backlog
  teardownTimeout: '180s',
};

export function setup() {
  requireService(http, '/v1/notifications/1', { headers: notifierHeaders() });
  return { before: sinkCount() };
}

export default function () {
  const event = eventOfThisVu();
  const res = sign(event);
  if (check(res, { 'signing is 201': (r) => r.status === 201 })) {
    signed.add(1);
  } else if (res.status === 503) {
    refused503.add(1);
  } else if (res.status === 504) {
    timedOut504.add(1);
  } else {
    otherwise.add(1);
  }
}

export function teardown(data) {
  const after = drain(5, 150);
  if (after === null || data.before === null) {
    return;
  }
  console.log(`sms-sink: ${after.deliveries - data.before.deliveries} SMS delivered during the run and drain, `
    + `${after.duplicates} message ids delivered more than once, ${after.refused - data.before.refused} refused`);
  check(after, { 'no SMS delivered twice': (c) => c.duplicates === data.before.duplicates });
}

export function handleSummary(data) {
  return summaries(data, __ENV.SUMMARY_NAME || 'notifier-seed001');
}
