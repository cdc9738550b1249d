// Shared settings of every perflab k6 script: where the gateway is and who the callers are.
export const BASE_URL = __ENV.BASE_URL || 'http://127.0.0.1:8080';

// Callers: CALLER_TOKENS holds one bearer token per caller (whitespace-separated; scripts/load/load.sh CALLERS=n mints them),
// else TOKEN is the only caller. Each VU is one caller, so the per-caller rate limit of the gateway sees many users
// as a real office does (one user at hundreds of requests/s is refused with 429s by design).
const TOKENS = (__ENV.CALLER_TOKENS || __ENV.TOKEN || '').split(/\s+/).filter((t) => t);
export const TOKEN = TOKENS[0] || '';
export const CALLERS = TOKENS.length;

export function authHeaders(extra = {}) {
  if (!TOKENS.length) {
    throw new Error('TOKEN is not set: run through scripts/load/load.sh or pass -e TOKEN=$(make -s token)');
  }
  // __VU is 0 in setup() and teardown(): the first caller
  const token = TOKENS[Math.max(0, __VU - 1) % TOKENS.length];
  return Object.assign({ Authorization: `Bearer ${token}` }, extra);
}

// setup(): fail fast unless the gateway answers and routes to the service behind `path` (actuator is not on the
// public port, so a real route is probed; a 5xx or no answer means the service is down or unroutable).
export function requireService(http, path, params = {}) {
  const res = http.get(`${BASE_URL}${path}`, params);
  if (res.status === 0 || res.status >= 500) {
    throw new Error(`${BASE_URL}${path} answered ${res.status || res.error}: is the system up (make up)?`);
  }
  return res;
}
