// Finds the mails a mail test reads: one per EML shape of the seed (4 KB, 712 KB, 22 MB), through the gateway.
import http from 'k6/http';
import { fail } from 'k6';
import { BASE_URL, authHeaders } from '../lib/config.js';

export function findMails() {
  const found = {};
  for (let page = 1; page <= 100 && !(found.small && found.medium && found.large); page++) {
    // oldest first: the seeded mails, before any a test sent (a mailbox grows with every smoke)
    const res = http.get(`${BASE_URL}/v2/mails?size=100&page=${page}&sort[received_date]=asc`, { headers: authHeaders(), tags: { name: 'setup' } });
    if (res.status !== 200) {
      fail(`listing mails failed (${res.status}): is the mail data seeded (make seed)?`);
    }
    for (const m of res.json('mails')) {
      if (m.size > 20000000 && !found.large) found.large = m.no;
      else if (m.size > 500000 && m.size < 1000000 && !found.medium) found.medium = m.no;
      else if (m.size < 10000 && !found.small) found.small = m.no;
    }
  }
  if (!found.small || !found.medium || !found.large) {
    fail(`the seed lacks a mail shape: ${JSON.stringify(found)}`);
  }
  return found;
}
