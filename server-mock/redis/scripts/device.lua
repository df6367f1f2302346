local p, u, m, status, cause = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local ttl, grace = tonumber(ARGV[6]), tonumber(ARGV[7])
local now = now_ms()
sane(p, u)
local dev, st = keys(p, u)
-- Devices whose gateway died and that no sweep removed yet leave now, like a close: `before`
-- counts them (for last_seen), and they are settled even when this device was gone already.
local before = aggregate(st)
local expired = expire(p, u, now)
if status == '' then
  if redis.call('ZREM', dev, m) == 0 and expired == 0 then return schedule(p, u, now) end
  redis.call('HDEL', st, m)
else
  redis.call('ZADD', dev, now + ttl, m)
  redis.call('HSET', st, m, status)
end
keep_alive(p, u, now, grace)
return settle(p, u, before, cause, now, grace)
