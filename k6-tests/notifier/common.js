// Who calls: through the gateway a bearer TOKEN (lib/config.js); straight at a service instance (a benchmark) an
// IDENTITY token signed as the gateway for notifier. The SMS endpoint (tools/sms-sink) answers what arrived.
import http from 'k6/http';
import { fail, sleep } from 'k6';
import { BASE_URL, authHeaders } from '../lib/config.js';

export const IDENTITY = __ENV.IDENTITY || '';
// tools/sms-sink of the local stack; empty: the drain is not checked at the endpoint
export const SMS_SINK_URL = (__ENV.SMS_SINK_URL || '').replace(/\/+$/, '');

export function notifierHeaders(extra = {}) {
  return IDENTITY ? Object.assign({ 'X-Perflab-Identity': IDENTITY }, extra) : authHeaders(extra);
}

const JSON_HEADERS = { 'Content-Type': 'application/json' };

export function createEvent(title) {
  const res = http.post(`${BASE_URL}/v1/events`, JSON.stringify({ title }),
    { headers: notifierHeaders(JSON_HEADERS), tags: { name: 'event' } });
  if (res.status !== 201) {
    fail(`creating an event answered ${res.status}: ${res.body}`);
  }
  return res.json('id');
}

// A phone number per VU and iteration: unique within a run, the same on a rerun.
export function phone() {
  return `010${String(10000000 + ((__VU * 100000 + __ITER) % 90000000))}`;
}

export function sign(eventId) {
  return http.post(`${BASE_URL}/v1/events/${eventId}/guestbook`,
    JSON.stringify({ name: `guest ${__VU}-${__ITER}`, phone: phone(), message: 'congratulations on the opening' }),
    { headers: notifierHeaders(JSON_HEADERS), tags: { name: 'sign' } });
}

// Each VU signs the guestbook of an event of its own caller's office, created on its first iteration (seed 001 created
// a new QR-code event for its run).
let vuEvent = null;
export function eventOfThisVu() {
  if (vuEvent === null) {
    vuEvent = createEvent(`k6 ${__ENV.SUMMARY_NAME || 'notifier'} vu ${__VU}`);
  }
  return vuEvent;
}

export function sinkCount() {
  if (!SMS_SINK_URL) return null;
  const res = http.get(`${SMS_SINK_URL}/count`, { tags: { name: 'sink' } });
  return res.status === 200 ? res.json() : null;
}

// teardown: waits until the endpoint has had no new SMS for `quiet` seconds (the backlog drained), at most `limit`
// seconds, and answers the endpoint's count then.
export function drain(quiet = 5, limit = 120) {
  let last = sinkCount();
  if (last === null) return null;
  let still = 0;
  for (let waited = 0; waited < limit && still < quiet; waited++) {
    sleep(1);
    const now = sinkCount();
    still = now && now.deliveries === last.deliveries ? still + 1 : 0;
    last = now || last;
  }
  return last;
}
