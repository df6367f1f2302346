local p, from, to, text = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local cap, epoch_new, origin, a, b = tonumber(ARGV[5]), ARGV[6], ARGV[7], ARGV[8], ARGV[9]
local conv, ids = p .. 'chat:' .. a .. '|' .. b, p .. 'chat:ids'
local convs_from, convs_to = p .. 'convs:' .. from, p .. 'convs:' .. to
drop_foreign(conv, 'zset')
drop_foreign(ids, 'hash')
drop_foreign(convs_from, 'zset')
drop_foreign(convs_to, 'zset')
local epoch = redis.call('HGET', ids, 'epoch')
if not epoch or not string.match(epoch, '^[0-9a-z]+$') or #epoch > 16 then
  epoch = epoch_new
  redis.call('HSET', ids, 'epoch', epoch)
end
local n = (tonumber(redis.call('HGET', ids, 'next') or '') or 0) + 1
local ts = now_ms()
local last = redis.call('ZRANGE', conv, -1, -1, 'WITHSCORES')
if last[2] then
  -- The conversation is the authority on its own order, whatever became of the counter.
  n = math.max(n, math.floor(tonumber(last[2]) or 0) + 1)
  local ok, frame = pcall(cjson.decode, last[1])
  if ok and type(frame) == 'table' and type(frame.ts) == 'number' then
    ts = math.max(ts, frame.ts)
  end
end
-- And above both users' newest activity, so that their conversation lists stay in order.
for _, convs in ipairs({ convs_from, convs_to }) do
  local top = redis.call('ZRANGE', convs, -1, -1, 'WITHSCORES')
  if top[2] then n = math.max(n, math.floor(tonumber(top[2]) or 0) + 1) end
end
redis.call('HSET', ids, 'next', n)
local member = cjson.encode({ type = 'message', id = 'm' .. epoch .. '.' .. n, from = from,
  to = to, text = text, ts = ts })
redis.call('ZADD', conv, n, member)
redis.call('ZREMRANGEBYRANK', conv, 0, -(cap + 1))
redis.call('ZADD', convs_from, n, to)
redis.call('ZADD', convs_to, n, from)
redis.call('PUBLISH', p .. 'msg:' .. to, origin .. '\n' .. member)
redis.call('PUBLISH', p .. 'msg:' .. from, origin .. '\n' .. member)
return member
