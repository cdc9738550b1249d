// What callers see through the gateway while a service goes away and comes back (scripts/test/reliability.sh kills it
// with -9 or stops it with SIGTERM, then starts it again): every answer is a success or a 503 problem+json with
// Retry-After within BOUND_MS (no 500, no 502, no 504, no hang, no cut-off body); before and once the service is
// back, every request succeeds. Every create that got a 2xx is printed (`CREATED <service> <id> <marker>`) so the
// script can find each one in the store afterwards, exactly once.
//
//   SERVICE    shortener | route | notifier | mail | send: its creates (links, routes, guestbook signings, sent mails) and
//              reads; for the route also STREAMS (3) callers reading a 20,000-point route's points back to back, for
//              mail an EML of 712 KB, long answers in flight at the signal. send has no create of its own: mail's sends reach it through mail's
//              outbox while it is away, and its reads are a delivery status
//              (a mail's subject is `crash-<RUN> <VU>-<ITER>`, its recipient `crash-<RUN>-<VU>@load.perflab.test`, so
//              scripts/test/delivery-count.py can count its messages at the SMTP server)
//   START_MS   the run's time zero (epoch ms), shared with the script that stops the service
//   DOWN_AT    seconds: when the script signals the service; BACK_BY: by when it must be serving again
//   HOW        kill (kill -9: an answer cut when the process dies, within moments of DOWN_AT, is counted as cut, not
//              as bad) | term (SIGTERM: nothing may be cut)
//   RUN        a marker unique to this run, carried by every created record
//   READER_TOKENS  mail: the callers whose own 712 KB mails the streams read (whitespace-separated)
//   DURATION (the run's bound), RATE (iterations/s), BOUND_MS (the longest answer allowed, default 10000)
// Phases: 'before' DOWN_AT; then 'down' (answers judged, not required to be successes); then 'after' (every request
// must succeed), per VU and kind of request: from the first whole 2xx of a kind this VU saw refused (a 503
// problem+json or no answer, at DOWN_AT or later), else from BACK_BY. Per kind, not per VU: send's VUs also send
// mails, which mail serves while send is away. crash_after_requests > 0: a run without an after phase fails.
// DURATION is only the bound: the script ends the run through k6's REST API AFTER seconds once the service is back
// (k6 then writes its summary and exits 103). A request k6 cancels at that stop is not an answer: not judged.
// Every answer is printed (`ANSWER <X-Request-Id> <status> whole|cut`): what SIGTERM must let finish is what the service
// itself had begun before the signal (its access log, read by the script), and each of those is looked up here. (A
// request k6 sent before the signal may reach the service after it, through a busy gateway: refused then, rightly.)
import http from 'k6/http';
import exec from 'k6/execution';
import { check, fail, sleep } from 'k6';
import { Counter, Rate } from 'k6/metrics';
import { BASE_URL, authHeaders, requireService } from '../lib/config.js';
import { summaries } from '../lib/summary.js';

// a number per VU, iteration and run: the notifier limits notifications per recipient and hour
function guestPhone() {
  return `010${String((Date.now() * 7 + __VU * 1000 + __ITER) % 100000000).padStart(8, '0')}`;
}

const bad = new Counter('crash_bad_answers');
const refused = new Counter('crash_refused_503');
const created = new Counter('crash_created');
const served = new Rate('crash_served_before_and_after');
const cutAtKill = new Counter('crash_cut_at_kill');
const afterRequests = new Counter('crash_after_requests');

const SERVICE = __ENV.SERVICE || 'shortener';
const HOW = __ENV.HOW || 'kill';
const START_MS = Number(__ENV.START_MS || Date.now());
const DOWN_AT = Number(__ENV.DOWN_AT || 5);
const BACK_BY = Number(__ENV.BACK_BY || 40);
const RUN = __ENV.RUN || `${Date.now()}`;
const BOUND_MS = Number(__ENV.BOUND_MS || 10000);
// mail's EML readers (other users than the sender: their back-to-back reads do not take the sender's rate)
const READERS = (__ENV.READER_TOKENS || '').split(/\s+/).filter((t) => t);
const POINTS = 20000; // the seed's route size: a points answer takes long enough to be in flight at the signal

const scenarios = {
  crash: {
    executor: 'constant-arrival-rate', rate: Number(__ENV.RATE || 10), timeUnit: '1s',
    duration: __ENV.DURATION || '60s', preAllocatedVUs: 10, maxVUs: 200,
  },
};
// the route's readers stream points, mail's an EML of 712 KB, back to back, so there are always answers in flight
// when the signal comes
if (SERVICE === 'route' || SERVICE === 'mail') {
  scenarios.streams = { executor: 'constant-vus', vus: Number(__ENV.STREAMS || 3), duration: __ENV.DURATION || '60s', exec: 'stream' };
}

export const options = {
  scenarios,
  thresholds: {
    crash_bad_answers: ['count==0'],
    crash_served_before_and_after: ['rate>0.99'],
    crash_created: ['count>0'],
    crash_after_requests: ['count>0'],
  },
  summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
};

const JSON_HEADERS = { 'Content-Type': 'application/json' };
const line = (n) => Array.from({ length: n }, (_, i) => ({ lat: 37.5 + i * 0.00001, lng: 127.0 + i * 0.00001 }));

const sendMail = (marker, to) => ({
  sender_no: 1, to: [to], subject: `crash-${RUN} ${marker}`, content: 'sent while a service went away',
});

export function setup() {
  const probe = { route: '/v1/routes/0', notifier: '/v1/events/0', mail: '/v2/mailboxes', send: '/v2/mailboxes',
    shortener: '/v1/short-links/none' }[SERVICE];
  // scripts/test/reliability.sh takes a case for every service: one whose creates this script does not know yet fails
  // here, never measures another service's requests in its name
  if (!probe) fail(`setup: no crash requests for SERVICE=${SERVICE}: add its creates and reads to k6-tests/reliability/crash.js`);
  requireService(http, probe, { headers: authHeaders() });
  if (SERVICE === 'mail' || SERVICE === 'send') {
    const res = http.post(`${BASE_URL}/v2/mails/send`, JSON.stringify(sendMail('setup', `crash-${RUN}-setup@load.perflab.test`)),
      { headers: authHeaders(JSON_HEADERS) });
    if (res.status !== 202) fail(`setup: POST /v2/mails/send answered ${res.status}: ${res.body}`);
    const { mail_no: no, delivery_id: delivery } = res.json();
    // mail's readers: each reads one of its own seeded mails with attachments (712 KB), found and read whole once
    // here; each answer under load is then compared by its length
    const emls = SERVICE !== 'mail' ? [] : READERS.map((token) => {
      const headers = { Authorization: `Bearer ${token}` };
      for (let page = 1; page <= 20; page++) {
        // oldest first: the seeded mails, before any a test sent (the mailbox grows with every run)
        const list = http.get(`${BASE_URL}/v2/mails?sort[received_date]=asc&size=100&page=${page}`, { headers });
        if (list.status !== 200) fail(`setup: GET /v2/mails answered ${list.status}: ${list.body}`);
        const found = list.json().mails.find((m) => m.size > 100000 && m.size < 2000000);
        if (!found) continue;
        const whole = http.get(`${BASE_URL}/v2/mails/${found.no}/eml`, { headers, timeout: '60s' });
        if (whole.status !== 200) fail(`setup: the EML of mail ${found.no}: ${whole.status}`);
        return { token, no: found.no, bytes: whole.body.length };
      }
      return fail('setup: a reader has no seeded mail of 712 KB (make seed)');
    });
    if (SERVICE === 'mail' && !emls.length) fail('setup: READER_TOKENS is empty');
    // send knows the delivery once mail's outbox relay handed it over (within a second or two)
    for (let i = 0; i < 60; i++) {
      if (http.get(`${BASE_URL}/v2/mails/${delivery}/delivery`, { headers: authHeaders() }).status === 200) return { no, delivery, emls };
      sleep(0.5);
    }
    fail(`setup: the delivery ${delivery} of mail ${no} never reached send`);
  }
  if (SERVICE === 'notifier') {
    const res = http.post(`${BASE_URL}/v1/events`, JSON.stringify({ title: `crash ${RUN}` }), { headers: authHeaders(JSON_HEADERS) });
    if (res.status !== 201) fail(`setup: POST /v1/events answered ${res.status}: ${res.body}`);
    return { event: res.json().id };
  }
  if (SERVICE === 'route') {
    const res = http.post(`${BASE_URL}/v1/routes`, JSON.stringify({ name: `crash-${RUN}-long`, bus: 'b', stops: [], points: line(POINTS) }),
      { headers: authHeaders(JSON_HEADERS), timeout: '60s' });
    if (res.status !== 201) fail(`setup: POST /v1/routes answered ${res.status}: ${res.body}`);
    const id = res.json().id;
    // parsed once here; each answer under load is then compared by its length, so a streaming caller spends its
    // time in the request (in flight), not in parsing 20,000 points
    const whole = http.get(`${BASE_URL}/v1/routes/${id}/points`, { headers: authHeaders(), timeout: '60s' });
    if (whole.status !== 200 || whole.json().length !== POINTS) fail(`setup: the points of route ${id}: ${whole.status}`);
    return { id, bytes: whole.body.length };
  }
  const res = http.post(`${BASE_URL}/v1/short-links`, JSON.stringify({ url: `https://example.com/crash/${RUN}/read` }),
    { headers: authHeaders(JSON_HEADERS) });
  if (res.status !== 201) fail(`setup: POST /v1/short-links answered ${res.status}: ${res.body}`);
  return { code: res.json().code };
}

// unique within the run: <name>-<scenario>-<VU>-<iteration>-<RUN>
const requestId = (name) => `${name}-${exec.scenario.name}-${__VU}-${__ITER}-${RUN}`;

function requests(data) {
  const marker = `${RUN}-${__VU}-${__ITER}`;
  // each request's own X-Request-Id: the gateway's log and the service's name it, so a request in flight at the signal
  // can be followed through both
  const id = (name) => ({ 'X-Request-Id': requestId(name) });
  const get = (path, name) => () => http.get(`${BASE_URL}${path}`, { headers: authHeaders(id(name)), timeout: '30s', tags: { name } });
  const post = (path, body, name) => () => http.post(`${BASE_URL}${path}`, JSON.stringify(body),
    { headers: authHeaders(Object.assign(id(name), JSON_HEADERS)), timeout: '30s', tags: { name } });
  if (SERVICE === 'route') {
    return [
      ['route create', post('/v1/routes', { name: `crash-${marker}`, bus: 'b', stops: [], points: line(20) }, 'create'),
        (res) => ({ id: res.json().id, marker: `crash-${marker}` })],
      ['route read', get(`/v1/routes/${data.id}`, 'read'), null],
      // a query of its own per read: the gateway's edge body cache keys by it, so every stream crosses to route and
      // is in flight there, not answered from the gateway's memory
      ['points stream', get(`/v1/routes/${data.id}/points?reader=${marker}`, 'points'), null,
        (res) => res.body !== null && res.body.length === data.bytes && res.body.endsWith(']')],
    ];
  }
  if (SERVICE === 'notifier') {
    return [
      ['guestbook signing', post(`/v1/events/${data.event}/guestbook`, { name: 'crash', phone: guestPhone(), message: `crash-${marker}` }, 'sign'),
        (res) => ({ id: res.json().id, marker: `crash-${marker}` })],
      ['event read', get(`/v1/events/${data.event}`, 'read'), null],
    ];
  }
  if (SERVICE === 'mail' || SERVICE === 'send') {
    const mine = `${__VU}-${__ITER}`;
    // the readers take turns by the scenario's iteration, not by VU number: VU numbers are shared by both scenarios,
    // and when the streams' three VUs fell on one reader its caller rate (the gateway's 200/s) ran out under the
    // back-to-back reads of a warm mail (seen: 1,141 answers 429 in 4 s)
    const eml = data.emls && data.emls.length ? data.emls[exec.scenario.iterationInTest % data.emls.length] : null;
    return [
      ['mail send', post('/v2/mails/send', sendMail(mine, `crash-${RUN}-${__VU}@load.perflab.test`), 'send'),
        (res) => ({ id: res.json().mail_no, marker: `crash-${RUN}-${mine}` })],
      SERVICE === 'mail' ? ['mailbox list', get('/v2/mailboxes', 'mailboxes'), null]
        : ['delivery status', get(`/v2/mails/${data.delivery}/delivery`, 'delivery'), null],
      ['eml stream', () => http.get(`${BASE_URL}/v2/mails/${eml.no}/eml`,
        { headers: { Authorization: `Bearer ${eml.token}`, 'X-Request-Id': requestId('eml') }, timeout: '30s', tags: { name: 'eml' } }),
      null, (res) => res.body !== null && res.body.length === eml.bytes],
    ];
  }
  const url = `https://example.com/crash/${marker}`;
  return [
    ['link create', post('/v1/short-links', { url }, 'create'), (res) => ({ id: res.json().code, marker: url })],
    ['link describe', get(`/v1/short-links/${data.code}`, 'describe'), null],
  ];
}

// this VU's kinds of request: 'seen down' once refused at DOWN_AT or later, 'back' from its first whole 2xx after that
const seen = {};

function judge(what, call, record, whole) {
  const res = call();
  const end = Date.now();
  // the run ended through the REST API while this was in flight: k6's own cancel, no answer of the system
  if (res.status === 0 && String(res.error).includes('context canceled')) return;
  const t = (end - START_MS) / 1000;
  const phase = t < DOWN_AT ? 'before' : seen[what] === 'back' || t >= BACK_BY ? 'after' : 'down';
  const ok = res.status >= 200 && res.status < 300;
  const complete = !ok || !whole || whole(res);
  const no = res.status === 503 && String(res.headers['Content-Type']).startsWith('application/problem+json')
    && !!res.headers['Retry-After'];
  const bounded = res.timings.duration <= BOUND_MS;
  const signal = START_MS + DOWN_AT * 1000;
  // kill -9 ends a process mid-answer: a stream whose status line went out before is cut when it dies (no gateway
  // can finish it), and that ends within moments of the kill, which comes a few ms after the agreed time
  const cut = HOW === 'kill' && (res.status === 0 || (ok && !complete)) && end >= signal - 500 && end <= signal + 3000;
  if (cut) {
    cutAtKill.add(1, { what });
  } else if (!check(res, { [`${what}: a whole success or a 503 problem+json with Retry-After, within ${BOUND_MS} ms`]: () => (ok || no) && complete && bounded })) {
    bad.add(1, { what, phase });
    console.warn(`${phase} ${what}: ${res.status}${complete ? '' : ` (body cut short: ${res.body === null ? 'none' : res.body.length} bytes, ${res.headers['Content-Length'] || 'no'} Content-Length, ${res.headers['Content-Encoding'] || 'no'} encoding, id ${res.headers['X-Request-Id']})`} in ${Math.round(res.timings.duration)} ms at ${t.toFixed(1)} s ${res.error || ''} ${String(res.body).slice(0, 160)}`);
  }
  if (no) refused.add(1, { what, phase });
  if (t >= DOWN_AT && !seen[what] && (no || res.status === 0)) seen[what] = 'seen down';
  else if (seen[what] === 'seen down' && ok && complete) seen[what] = 'back';
  console.log(`ANSWER ${res.headers['X-Request-Id'] || '-'} ${res.status} ${complete ? 'whole' : 'cut'}`);
  if (ok && record) {
    const r = record(res);
    created.add(1);
    console.log(`CREATED ${SERVICE} ${r.id} ${r.marker}`);
  }
  if (phase !== 'down') {
    served.add(ok, { what, phase });
    if (phase === 'after') afterRequests.add(1, { what });
    if (!ok) console.warn(`${phase} ${what}: not served, ${res.status} in ${Math.round(res.timings.duration)} ms at ${t.toFixed(1)} s`);
  }
}

const STREAMS = ['points stream', 'eml stream'];

export default function (data) {
  for (const [what, call, record, whole] of requests(data)) {
    if (!STREAMS.includes(what)) judge(what, call, record, whole);
  }
}

export function stream(data) {
  const [what, call, record, whole] = requests(data).find(([w]) => w === (SERVICE === 'mail' ? 'eml stream' : 'points stream'));
  judge(what, call, record, whole);
}

export function handleSummary(data) {
  return summaries(data, __ENV.SUMMARY_NAME || `crash-${SERVICE}`);
}
