-- One caller's token bucket, decided in Redis so every gateway replica spends the same tokens.
-- KEYS[1]: the tokens left; KEYS[2]: when they were counted, in seconds of Redis's own clock to the microsecond.
-- ARGV[1]: tokens added per second; ARGV[2]: the bucket's capacity (the burst); ARGV[3]: tokens this decision takes.
-- Returns { 1 when they were taken, else 0; whole tokens left }.
--
-- The time is Redis's, read here to the microsecond: with whole seconds (as Spring Cloud Gateway's own script reads
-- it) a bucket refills all at once on each second's edge, and a caller who empties it just before the edge gets a
-- second burst at once (10 requests in 20 ms at a limit of 5/s with a burst of 5).
local rate = tonumber(ARGV[1])
local capacity = tonumber(ARGV[2])
local requested = tonumber(ARGV[3])

local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000

local tokens = tonumber(redis.call('GET', KEYS[1]))
local counted = tonumber(redis.call('GET', KEYS[2]))
if tokens == nil or counted == nil then
  tokens = capacity
  counted = now
end

tokens = math.min(capacity, tokens + math.max(0, now - counted) * rate)
local allowed = 0
if tokens >= requested then
  tokens = tokens - requested
  allowed = 1
end

-- kept until the bucket would be full again (twice that, at least a second): a missing bucket reads as full
local keep = math.max(1000, math.ceil(capacity / rate * 2000))
redis.call('SET', KEYS[1], string.format('%.6f', tokens), 'PX', keep)
redis.call('SET', KEYS[2], string.format('%.6f', now), 'PX', keep)
return { allowed, math.floor(tokens) }
