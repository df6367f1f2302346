local p, grace, limit = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local now = now_ms()
drop_foreign(p .. 'due', 'zset')
local due = redis.call('ZRANGEBYSCORE', p .. 'due', '-inf', now, 'LIMIT', 0, limit)
for _, u in ipairs(due) do
  sane(p, u)
  local _, st, pub = keys(p, u)
  local before = aggregate(st)
  if expire(p, u, now) > 0 then
    -- A device that stopped refreshing left: the grace applies, as for a close.
    settle(p, u, before, 'left', now, grace)
  else
    local grace_at = tonumber(redis.call('HGET', pub, 'grace_at') or '')
    if grace_at and grace_at <= now then
      settle(p, u, before, 'grace', now, grace)
    else
      schedule(p, u, now)
    end
  end
end
local next_due = redis.call('ZRANGE', p .. 'due', 0, 0, 'WITHSCORES')
local wait = -1
if next_due[2] then wait = math.max(0, tonumber(next_due[2]) - now) end
return { #due, wait, store_epoch(p) }
