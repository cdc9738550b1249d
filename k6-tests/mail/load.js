// Seed 000's load shapes through the gateway, or straight at a mail instance with BASE_URL and IDENTITY, an identity
// token as the gateway signs it for mail: IDENTITY=$(scripts/lib/jwt.sh identity perflab-gateway alice 1 mail 3600)
//   SCENARIO=list        GET /v2/mails with 200 VUs (the LEFT JOIN count)
//   SCENARIO=read-large  GET /v2/mails/{22 MB} with 80 VUs (the OOM)
// Bounded: DURATION (default 60s).
import http from 'k6/http';
import { check, fail } from 'k6';
import { BASE_URL, authHeaders } from '../lib/config.js';
import { summaries } from '../lib/summary.js';
import { failures, latency } from '../lib/thresholds.js';
import { findMails } from './common.js';
import slo from './slo.js';

const scenario = __ENV.SCENARIO || 'list';
// each shape's latency SLO is stated in ./slo.js (its endpoint's statement for this script)
const shapes = {
  list: { vus: 200, thresholds: latency(slo, ['list'], { scenario: 'mail/load' }) },
  'read-large': { vus: 80, thresholds: latency(slo, ['read'], { metrics: { read: 'http_req_duration{name:read-large}' }, scenario: 'mail/load' }) },
};
if (!shapes[scenario]) {
  throw new Error(`SCENARIO must be one of ${Object.keys(shapes)}`);
}

export const options = {
  discardResponseBodies: true,
  scenarios: { [scenario]: { executor: 'constant-vus', vus: shapes[scenario].vus, duration: __ENV.DURATION || '60s' } },
  thresholds: Object.assign({ http_req_failed: failures(slo).http_req_failed }, shapes[scenario].thresholds),
};

function headers() {
  return __ENV.IDENTITY ? { 'X-Perflab-Identity': __ENV.IDENTITY } : authHeaders();
}

export function setup() {
  if (__ENV.IDENTITY) {
    return { large: Number(__ENV.LARGE_MAIL || fail('set LARGE_MAIL when calling a mail instance directly')) };
  }
  return findMails();
}

export default function (mails) {
  if (scenario === 'list') {
    const res = http.get(`${BASE_URL}/v2/mails`, { headers: headers(), tags: { name: 'list' } });
    check(res, { 'list is 200': (r) => r.status === 200 });
  } else {
    const res = http.get(`${BASE_URL}/v2/mails/${mails.large}`, { headers: headers(), tags: { name: 'read-large' } });
    check(res, { 'read is 200': (r) => r.status === 200 });
  }
}

export function handleSummary(data) {
  return summaries(data, `mail-${scenario}`);
}
