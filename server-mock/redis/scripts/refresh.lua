local p, ttl, grace = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local now = now_ms()
local missing = {}
for i = 4, #ARGV, 2 do
  local u, m = ARGV[i], ARGV[i + 1]
  sane(p, u)
  local dev = p .. 'dev:' .. u
  if redis.call('ZADD', dev, 'XX', 'CH', now + ttl, m) == 0 and not redis.call('ZSCORE', dev, m) then
    missing[#missing + 1] = u
    missing[#missing + 1] = m
  else
    keep_alive(p, u, now, grace)
    schedule(p, u, now)
  end
end
return missing
