// Shared settings of every perflab k6 script: where the gateway is and who the caller is.
export const BASE_URL = __ENV.BASE_URL || 'http://127.0.0.1:8080';
export const TOKEN = __ENV.TOKEN || '';

export function authHeaders(extra = {}) {
  if (!TOKEN) {
    throw new Error('TOKEN is not set: run through scripts/load.sh or pass -e TOKEN=$(make -s token)');
  }
  return Object.assign({ Authorization: `Bearer ${TOKEN}` }, extra);
}
