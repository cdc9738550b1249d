// Smoke of every notifier endpoint through the gateway: an event, a guestbook signing and its SMS, the guestbook page,
// a sign-up and its welcome mail, a duplicate sign-up refused. Thresholds are the SLOs of ./slo.js.
import http from 'k6/http';
import { check } from 'k6';
import { BASE_URL, requireService } from '../lib/config.js';
import { summaries } from '../lib/summary.js';
import { profileOptions } from '../lib/profiles.js';
import { failures, latency } from '../lib/thresholds.js';
import { createEvent, notifierHeaders, sign } from './common.js';
import slo from './slo.js';

export const options = profileOptions({
  // a smoke's load: each iteration signs a member up, and BCrypt costs ~100 ms of a core per sign-up. At 5/s the smoke
  // alone kept ~0.8 of a 2-core lab's cores busy on the notifier beside the whole system, and a `make test` saw the
  // sign-up p95 at 466 ms; at 2/s it is a smoke, and the rate of a load test is RATE's business
  rate: 2,
  vus: 5,
  maxVUs: 20,
  // the duplicate sign-up's 409 is expected (its responseCallback), not a failure
  thresholds: Object.assign(failures(slo), latency(slo, ['sign', 'member'])),
});

export function setup() {
  requireService(http, '/v1/notifications/1', { headers: notifierHeaders() });
  return { event: createEvent('k6 smoke') };
}

export default function (data) {
  const signed = sign(data.event);
  check(signed, { 'signing the guestbook is 201': (r) => r.status === 201 });
  if (signed.status === 201) {
    const n = http.get(`${BASE_URL}/v1/notifications/${signed.json('notification_id')}`,
      { headers: notifierHeaders(), tags: { name: 'notification' } });
    check(n, { 'its SMS notification is readable': (r) => r.status === 200 && r.json('channel') === 'sms' });
  }

  const page = http.get(`${BASE_URL}/v1/events/${data.event}/guestbook?page=0`,
    { headers: notifierHeaders(), tags: { name: 'guestbook', expected: 'yes' } });
  check(page, { 'the guestbook page lists entries': (r) => r.status === 200 && r.json('entries').length > 0 });

  const body = JSON.stringify({ email: `k6-${__VU}-${__ITER}-${Date.now()}@example.com`, name: 'k6', password: 'correct horse battery' });
  const headers = notifierHeaders({ 'Content-Type': 'application/json' });
  const member = http.post(`${BASE_URL}/v1/members`, body, { headers, tags: { name: 'member', expected: 'yes' } });
  check(member, { 'a sign-up is 201': (r) => r.status === 201 });
  const again = http.post(`${BASE_URL}/v1/members`, body, {
    headers, tags: { name: 'member-duplicate', expected: 'no' }, responseCallback: http.expectedStatuses(409),
  });
  check(again, { 'the same email again is 409 problem+json': (r) => r.status === 409
    && String(r.headers['Content-Type']).startsWith('application/problem+json') });
}

export function handleSummary(data) {
  return summaries(data, __ENV.SUMMARY_NAME || 'notifier-smoke');
}
