// k6 thresholds from the SLOs each service states once (k6-tests/<service>/slo.js, defaults in lib/slo.js): a script
// names the endpoints it times and, where it times them with a metric of its own, that metric.
//
//   thresholds: Object.assign(failures(slo), latency(slo, ['list', 'read'], { metrics: { list: 'mail_list_duration' } }))
import shared from './slo.js';

// ['p(95)<100', 'p(99)<250'] of one endpoint; a statement the SLO makes for one script only (its `scenarios` entry,
// keyed by the script's path under k6-tests/ without .js) replaces the endpoint's own for that script.
function rules(slo, endpoint, scenario) {
  const stated = slo.endpoints[endpoint];
  if (!stated) throw new Error(`no SLO for ${endpoint}: one of ${Object.keys(slo.endpoints).join(', ')}`);
  const own = Object.assign({}, stated, (stated.scenarios || {})[scenario] || {});
  return Object.keys(own).filter((k) => /^p\d+$/.test(k)).map((k) => `p(${k.slice(1)})<${own[k]}`);
}

// { metric: rules } for the named endpoints of one service's SLOs; an endpoint is timed by
// http_req_duration{name:<endpoint>} (its request's name tag) unless `metrics` names another metric.
export function latency(slo, endpoints, { metrics = {}, scenario } = {}) {
  const out = {};
  for (const endpoint of endpoints) {
    out[metrics[endpoint] || `http_req_duration{name:${endpoint}}`] = rules(slo, endpoint, scenario);
  }
  return out;
}

// http_req_failed and checks for a script calling the services of these SLOs: the strictest of their limits.
export function failures(...slos) {
  const own = (key) => slos.map((s) => (s[key] === undefined ? shared[key] : s[key]));
  return { http_req_failed: [`rate<${Math.min(...own('failed'))}`], checks: [`rate>${Math.max(...own('checks'))}`] };
}
