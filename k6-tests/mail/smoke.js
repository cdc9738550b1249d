// Smoke of every mail endpoint through the gateway, seed 000's mix at a small bounded rate. Thresholds are the SLOs
// of ./slo.js.
import http from 'k6/http';
import { check, fail } from 'k6';
import { Trend } from 'k6/metrics';
import { BASE_URL, authHeaders, requireService } from '../lib/config.js';
import { summaries } from '../lib/summary.js';
import { profileOptions } from '../lib/profiles.js';
import { failures, latency } from '../lib/thresholds.js';
import { findMails } from './common.js';
import slo from './slo.js';

const listDuration = new Trend('mail_list_duration', true);
const readDuration = new Trend('mail_read_duration', true);

export const options = profileOptions({
  rate: 10,
  vus: 20,
  maxVUs: 60,
  thresholds: Object.assign(failures(slo),
    latency(slo, ['list', 'read'], { metrics: { list: 'mail_list_duration', read: 'mail_read_duration' } })),
});

export function setup() {
  requireService(http, '/v2/mailboxes', { headers: authHeaders() });
  return findMails();
}

export default function (mails) {
  const h = { headers: authHeaders() };
  const boxes = http.get(`${BASE_URL}/v2/mailboxes`, Object.assign({ tags: { name: 'mailboxes' } }, h));
  check(boxes, { 'mailboxes are listed': (r) => r.status === 200 });

  const list = http.get(`${BASE_URL}/v2/mails?sort[received_date]=desc&with=approval_mail&with=receipt_confirm&with=encrypted`,
    Object.assign({ tags: { name: 'list' } }, h));
  listDuration.add(list.timings.duration);
  check(list, { 'list has a total': (r) => r.status === 200 && r.json('total') > 0 });

  const which = [mails.small, mails.small, mails.medium, mails.large][__ITER % 4];
  const read = http.get(`${BASE_URL}/v2/mails/${which}`, Object.assign({ tags: { name: 'read' } }, h));
  readDuration.add(read.timings.duration);
  check(read, { 'mail is read': (r) => r.status === 200 });

  const sent = http.post(`${BASE_URL}/v2/mails/send`, JSON.stringify({
    sender_no: 1, to: ['jerry@example.com'], cc: [], bcc: [], subject: 'k6 smoke',
    content: 'contentcontent121212', is_save: true, is_receipt_confirm: true,
  }), { headers: authHeaders({ 'Content-Type': 'application/json' }), tags: { name: 'send' } });
  check(sent, { 'send is accepted with a delivery id': (r) => r.status === 202 && !!r.json('delivery_id') });

  // the public read-receipt link: its key is the server's 128 random bits, so a guessed one learns nothing
  const key = `k6x${__VU}x${__ITER}`.padEnd(22, 'A').slice(0, 22); // well formed: 22 base64url characters
  const guessed = http.get(`${BASE_URL}/v2/office/1/receipt-confirm/${key}`,
    { tags: { name: 'receipt-confirm' }, responseCallback: http.expectedStatuses(404) });
  check(guessed, { 'a guessed receipt key is 404 problem+json': (r) => r.status === 404
    && String(r.headers['Content-Type']).startsWith('application/problem+json') });
}

export function handleSummary(data) {
  return summaries(data, 'mail-smoke');
}
