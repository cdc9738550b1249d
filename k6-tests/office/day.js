// A day in the office, every service at once through the gateway, each part at its share of the traffic: people
// reading their mailboxes (most of it), sending mail, following and creating short links (seed 004's mix), dispatchers
// reading bus routes (seed 002), guests signing event guestbooks (seed 001). RATE scales the whole mix; CALLERS=n
// spreads it over n users (one user at this rate alone would meet the gateway's per-caller limit). Each request is held
// to its service's SLO (k6-tests/<service>/slo.js), with what an SLO states for this script (`office/day`) instead.
//
//   make load SCRIPT=k6-tests/office/day.js PROFILE=average RATE=2 CALLERS=20
import http from 'k6/http';
import { check } from 'k6';
import { BASE_URL, TOKEN, authHeaders, requireService } from '../lib/config.js';
import { summaries } from '../lib/summary.js';
import { mixOptions } from '../lib/profiles.js';
import { failures, latency } from '../lib/thresholds.js';
import { createEvent, sign } from '../notifier/common.js';
import mail from '../mail/slo.js';
import notifier from '../notifier/slo.js';
import route from '../route/slo.js';
import shortener from '../shortener/slo.js';

const scenario = 'office/day';

export const options = mixOptions({
  mix: {
    mailbox: { rate: 8, exec: 'reading' },
    send: { rate: 1, exec: 'send' },
    links: { rate: 2, exec: 'links' },
    routes: { rate: 2, exec: 'routes' },
    guestbook: { rate: 2, exec: 'guestbook' },
  },
  thresholds: Object.assign(failures(mail, notifier, route, shortener),
    latency(mail, ['list', 'read', 'send'], { scenario }),
    latency(shortener, ['create', 'redirect'], { scenario }),
    latency(route, ['points'], { scenario }),
    latency(notifier, ['sign'], { scenario })),
});

const JSON_HEADERS = { 'Content-Type': 'application/json' };

// the mailbox the seed filled is the first caller's (alice's): mail is read and sent as that user, the rest of the
// mix by every caller
function mailbox(extra = {}) {
  return Object.assign({ Authorization: `Bearer ${TOKEN}` }, extra);
}

export function setup() {
  requireService(http, '/v2/mailboxes', { headers: authHeaders() });
  requireService(http, '/v1/routes/1', { headers: authHeaders() });
  return { event: createEvent('k6 day in the office') };
}

// the caller's newest mails, and one of them read
export function reading() {
  const list = http.get(`${BASE_URL}/v2/mails?size=20&sort[received_date]=desc`, { headers: mailbox(), tags: { name: 'list' } });
  check(list, { 'the mailbox is listed': (r) => r.status === 200 });
  const mails = list.status === 200 ? list.json('mails') : [];
  const small = mails.filter((m) => m.size < 100000);
  if (small.length) {
    const read = http.get(`${BASE_URL}/v2/mails/${small[__ITER % small.length].no}`, { headers: mailbox(), tags: { name: 'read' } });
    check(read, { 'a mail is read': (r) => r.status === 200 });
  }
}

export function send() {
  const sent = http.post(`${BASE_URL}/v2/mails/send`, JSON.stringify({
    sender_no: 1, to: ['jerry@example.com'], subject: 'k6 day in the office', content: 'minutes of the meeting', is_save: true,
  }), { headers: mailbox(JSON_HEADERS), tags: { name: 'send' } });
  check(sent, { 'a send is accepted with a delivery id': (r) => r.status === 202 && !!r.json('delivery_id') });
}

// seed 004's mix: one link created, followed ten times
export function links() {
  const url = `https://example.com/day/${__VU}/${__ITER}`;
  const created = http.post(`${BASE_URL}/v1/short-links`, JSON.stringify({ url }), { headers: authHeaders(JSON_HEADERS), tags: { name: 'create' } });
  if (!check(created, { 'a link is created': (r) => r.status === 201 })) return;
  for (let i = 0; i < 10; i++) {
    const res = http.get(`${BASE_URL}/s/${created.json('code')}`, { redirects: 0, tags: { name: 'redirect' } });
    check(res, { 'a link redirects to its URL': (r) => (r.status === 301 || r.status === 302) && r.headers.Location === url });
  }
}

// a dispatcher's screen: one of the seeded routes, every point (gzip, as a browser asks)
export function routes() {
  const id = 1 + (__ITER % Number(__ENV.ROUTES || 5));
  const points = http.get(`${BASE_URL}/v1/routes/${id}/points`, {
    headers: authHeaders({ 'Accept-Encoding': 'gzip' }), tags: { name: 'points' },
  });
  check(points, { 'a route is read whole': (r) => r.status === 200 });
}

export function guestbook(data) {
  check(sign(data.event), { 'a guest signs the guestbook': (r) => r.status === 201 });
}

export function handleSummary(data) {
  return summaries(data, __ENV.SUMMARY_NAME || 'office-day');
}
