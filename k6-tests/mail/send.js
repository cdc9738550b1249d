// POST /v2/mails/send under seed 000's load: N concurrent senders (JMeter's thread group, a closed model on
// purpose: pool starvation is a function of requests in flight, not of the arrival rate), read receipts on, one
// recipient per sender. Run through scripts/bench/bench-send.sh for the side-by-side proof (both hand-offs, faults,
// delivered-message count); thresholds are the fixed design's SLOs.
//   VUS (default 5)  DURATION (default 10s)  RUN (a tag in subjects and recipients)
//   TOKENS: JSON [{"token": "...", "sender_no": 1}, ...] (callers, spread over VUs); else TOKEN as sender 1
import http from 'k6/http';
import { check, fail } from 'k6';
import { Counter, Trend } from 'k6/metrics';
import { BASE_URL, TOKEN, requireService } from '../lib/config.js';
import { summaries } from '../lib/summary.js';
import { failures, latency } from '../lib/thresholds.js';
import slo from './slo.js';

const RUN = __ENV.RUN || `k6${Date.now().toString(36)}`;
const CALLERS = __ENV.TOKENS ? JSON.parse(__ENV.TOKENS) : [{ token: TOKEN, sender_no: 1 }];

const sendDuration = new Trend('mail_send_duration', true);
const accepted = new Counter('mail_send_accepted');
const overloaded = new Counter('mail_send_overloaded');
const serverErrors = new Counter('mail_send_server_errors');

export const options = {
  scenarios: {
    senders: {
      executor: 'constant-vus',
      vus: Number(__ENV.VUS || 5),
      duration: __ENV.DURATION || '10s',
      gracefulStop: '15s',
    },
  },
  thresholds: {
    ...failures(slo),
    ...latency(slo, ['send'], { metrics: { send: 'mail_send_duration' }, scenario: 'mail/send' }),
    mail_send_overloaded: ['count==0'],
    mail_send_server_errors: ['count==0'],
  },
};

export function setup() {
  if (!CALLERS[0].token) {
    fail('TOKEN or TOKENS is not set: run through scripts/load/load.sh or scripts/bench/bench-send.sh');
  }
  requireService(http, '/v2/mailboxes', { headers: { Authorization: `Bearer ${CALLERS[0].token}` } });
}

export default function () {
  const caller = CALLERS[__VU % CALLERS.length];
  const res = http.post(`${BASE_URL}/v2/mails/send`, JSON.stringify({
    cert_key: `${RUN}v${__VU}i${__ITER}`, sender_no: caller.sender_no, to: [`${RUN}-${__VU}@load.perflab.test`],
    cc: [], bcc: [], subject: `${RUN} ${__VU}/${__ITER}`, content: 'contentcontent121212', important: false,
    is_save: true, is_separate_send: false, is_encrypt: false, is_receipt_confirm: true,
  }), {
    headers: { Authorization: `Bearer ${caller.token}`, 'Content-Type': 'application/json' },
    tags: { name: 'send' },
    timeout: '60s',
  });
  sendDuration.add(res.timings.duration);
  if (res.status === 202) accepted.add(1);
  if (res.status === 503) overloaded.add(1);
  else if (res.status >= 500 || res.status === 0) serverErrors.add(1);
  check(res, { 'send is accepted': (r) => r.status === 202 });
}

export function handleSummary(data) {
  return summaries(data, __ENV.SUMMARY_NAME || 'mail-send');
}
