local p, ttl, grace = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local now = now_ms()
local missing = {}
-- Keys a live device implies but Redis no longer has: evicted (maxmemory) or deleted, while the
-- epoch survived. Seq may count from 0 again and other gateways' watchers would not know, so
-- a new epoch makes every gateway rebuild as after a restart.
local lost = 0
for i = 4, #ARGV, 2 do
  local u, m = ARGV[i], ARGV[i + 1]
  sane(p, u)
  local dev, st, pub = keys(p, u)
  if redis.call('ZADD', dev, 'XX', 'CH', now + ttl, m) == 0 and not redis.call('ZSCORE', dev, m) then
    missing[#missing + 1] = u
    missing[#missing + 1] = m
    -- A device a sweep expired took its status with it; with the status still there, only
    -- the device went.
    if redis.call('HEXISTS', st, m) == 1 then lost = lost + 1 end
  else
    if redis.call('HEXISTS', st, m) == 0 or redis.call('EXISTS', p .. 'live:' .. u) == 0
        or (not redis.call('HGET', pub, 'status') and aggregate(st) ~= 'offline') then
      lost = lost + 1
    end
    keep_alive(p, u, now, grace)
    schedule(p, u, now)
  end
end
if lost > 0 then
  redis.log(redis.LOG_WARNING, 'presence: keys of ' .. lost .. ' live devices are gone; new epoch')
  renew_epoch(p)
end
return missing
