// What callers see through the gateway while a store is down (scripts/test/reliability.sh stops and starts it): every
// answer is a success or a 503 problem+json with Retry-After, within BOUND_MS (no 500, no other error, no hang); before
// the outage and once the store is back (after GRACE seconds for reconnects), every request succeeds.
//
//   STORE      mariadb | mongo-wire | redis: the requests that need that store
//   START_MS   the run's time zero (epoch ms) the script's phases count from, shared with the script that stops the store
//   OUTAGE_AT, OUTAGE_FOR, GRACE   seconds: the store is down from OUTAGE_AT for OUTAGE_FOR; GRACE after it is back
//   DURATION   length of the run; RATE iterations/s; BOUND_MS the longest answer allowed (default 10000)
// The caller is a user with a mail account (the seed's alice): mail answers 403 to anyone else.
import http from 'k6/http';
import { check, fail } from 'k6';
import { Counter, Rate } from 'k6/metrics';
import { BASE_URL, authHeaders, requireService } from '../lib/config.js';
import { summaries } from '../lib/summary.js';

// a number per VU, iteration and run: the notifier limits notifications per recipient and hour
function guestPhone() {
  return `010${String((Date.now() * 7 + __VU * 1000 + __ITER) % 100000000).padStart(8, '0')}`;
}

const bad = new Counter('outage_bad_answers');
const duringOutage = new Counter('outage_refused_503');
const served = new Rate('outage_served_before_and_after');

const STORE = __ENV.STORE || 'mariadb';
const START_MS = Number(__ENV.START_MS || Date.now());
const OUTAGE_AT = Number(__ENV.OUTAGE_AT || 5);
const OUTAGE_FOR = Number(__ENV.OUTAGE_FOR || 20);
const GRACE = Number(__ENV.GRACE || 15);
const BOUND_MS = Number(__ENV.BOUND_MS || 10000);

export const options = {
  scenarios: {
    outage: {
      executor: 'constant-arrival-rate', rate: Number(__ENV.RATE || 5), timeUnit: '1s',
      duration: __ENV.DURATION || '50s', preAllocatedVUs: 10, maxVUs: 200,
    },
  },
  thresholds: {
    outage_bad_answers: ['count==0'],
    outage_served_before_and_after: ['rate>0.99'],
  },
  summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
};

const JSON_HEADERS = { 'Content-Type': 'application/json' };

export function setup() {
  requireService(http, '/v2/mailboxes', { headers: authHeaders() });
  const post = (path, body) => {
    const res = http.post(`${BASE_URL}${path}`, JSON.stringify(body), { headers: authHeaders(JSON_HEADERS) });
    if (res.status !== 201) fail(`setup: POST ${path} answered ${res.status}: ${res.body}`);
    return res.json();
  };
  const points = [];
  for (let i = 0; i < 50; i++) points.push({ lat: 37.5 + i * 0.0001, lng: 127.0 + i * 0.0001 });
  return {
    event: post('/v1/events', { title: 'outage' }).id,
    route: post('/v1/routes', { name: 'outage', bus: 'b', stops: [], points }).id,
    code: post('/v1/short-links', { url: 'https://example.com/outage' }).code,
  };
}

function requests(data) {
  const h = { headers: authHeaders(), timeout: '30s' };
  const body = (o) => Object.assign({ headers: authHeaders(JSON_HEADERS), timeout: '30s' }, o);
  const mysql = [
    ['mail list', () => http.get(`${BASE_URL}/v2/mails?size=5`, Object.assign({ tags: { name: 'mail-list' } }, h))],
    ['route', () => http.get(`${BASE_URL}/v1/routes/${data.route}`, Object.assign({ tags: { name: 'route' } }, h))],
    ['guestbook signing', () => http.post(`${BASE_URL}/v1/events/${data.event}/guestbook`,
      JSON.stringify({ name: 'guest', phone: guestPhone(), message: 'hi' }), body({ tags: { name: 'sign' } }))],
  ];
  const mongo = [
    ['link create', () => http.post(`${BASE_URL}/v1/short-links`,
      JSON.stringify({ url: `https://example.com/outage/${__VU}/${__ITER}` }), body({ tags: { name: 'create' } }))],
    ['link describe', () => http.get(`${BASE_URL}/v1/short-links/${data.code}`, Object.assign({ tags: { name: 'describe' } }, h))],
    ['redirect', () => http.get(`${BASE_URL}/s/${data.code}`, { redirects: 0, timeout: '30s', tags: { name: 'redirect' } })],
  ];
  return { mariadb: mysql, 'mongo-wire': mongo, redis: mysql.concat(mongo) }[STORE];
}

export default function (data) {
  for (const [what, call] of requests(data)) {
    const res = call();
    const t = (Date.now() - START_MS) / 1000;
    const phase = t < OUTAGE_AT ? 'before' : t < OUTAGE_AT + OUTAGE_FOR ? 'outage' : t < OUTAGE_AT + OUTAGE_FOR + GRACE ? 'grace' : 'after';
    const ok = res.status >= 200 && res.status < 400;
    const refused = res.status === 503 && String(res.headers['Content-Type']).startsWith('application/problem+json')
      && !!res.headers['Retry-After'];
    const bounded = res.timings.duration <= BOUND_MS;
    if (!check(res, { [`${what}: a success or a 503 problem+json with Retry-After, within ${BOUND_MS} ms`]: () => (ok || refused) && bounded })) {
      bad.add(1, { what, phase });
      console.warn(`${phase} ${what}: ${res.status} in ${Math.round(res.timings.duration)} ms at ${t.toFixed(1)} s ${res.error || ''} ${String(res.body).slice(0, 160)}`);
    }
    if (refused) duringOutage.add(1, { what, phase });
    if (phase === 'before' || phase === 'after') {
      served.add(ok, { what, phase });
      if (!ok) console.warn(`${phase} ${what}: not served, ${res.status} in ${Math.round(res.timings.duration)} ms at ${t.toFixed(1)} s`);
    }
  }
}

export function handleSummary(data) {
  return summaries(data, __ENV.SUMMARY_NAME || `outage-${STORE}`);
}
