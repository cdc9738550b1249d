#!/usr/bin/env python3
"""bench-route.sh's long route: 20,000 points of a fixed random walk, as the create request's JSON."""
import json, math, random
random.seed(2)
lat, lng, heading, points = 37.5, 127.0, 0.0, []
for i in range(20000):
    heading += (random.random() - 0.5) * 0.3
    lat += math.cos(heading) * 0.00005
    lng += math.sin(heading) * 0.00006
    points.append({'lat': round(lat, 7), 'lng': round(lng, 7)})
print(json.dumps({'name': 'bench 20k', 'bus': 'bus-bench', 'stops': [], 'points': points}))
