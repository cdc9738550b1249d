// Shared settings of every perflab k6 script: where the gateway is and who the caller is.
export const BASE_URL = __ENV.BASE_URL || 'http://127.0.0.1:8080';
export const TOKEN = __ENV.TOKEN || '';

export function authHeaders(extra = {}) {
  if (!TOKEN) {
    throw new Error('TOKEN is not set: run through scripts/load.sh or pass -e TOKEN=$(make -s token)');
  }
  return Object.assign({ Authorization: `Bearer ${TOKEN}` }, extra);
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
