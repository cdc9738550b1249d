// Who reads: through the gateway a bearer TOKEN (lib/config.js); straight at a service instance (the benchmark) an
// IDENTITY token signed as the gateway for the route service.
import { authHeaders } from '../lib/config.js';

export const IDENTITY = __ENV.IDENTITY || '';

export function routeHeaders(extra = {}) {
  return IDENTITY ? Object.assign({ 'X-Perflab-Identity': IDENTITY }, extra) : authHeaders(extra);
}

// A deterministic bus path of n points (a few metres a step around Seoul), as POST /v1/routes takes it.
export function routeBody(n, name) {
  const points = [];
  let lat = 37.5, lng = 127.0, heading = 0.3;
  for (let i = 0; i < n; i++) {
    heading += Math.sin(i * 0.37) * 0.1;
    lat += Math.cos(heading) * 0.00005;
    lng += Math.sin(heading) * 0.00006;
    points.push({ lat: Math.round(lat * 1e7) / 1e7, lng: Math.round(lng * 1e7) / 1e7 });
  }
  return JSON.stringify({
    name,
    bus: 'bus-k6',
    stops: [{ name: 'first', lat: points[0].lat, lng: points[0].lng }, { name: 'last', lat: points[n - 1].lat, lng: points[n - 1].lng }],
    points,
  });
}
