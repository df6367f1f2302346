local p, user, with, up_to, a, b = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6]
local conv, marks = p .. 'chat:' .. a .. '|' .. b, p .. 'read:' .. user
drop_foreign(marks, 'hash')
local n = number_of(up_to)
if not n or redis.call('TYPE', conv).ok ~= 'zset' then return 0 end
local held = false
for _, m in ipairs(redis.call('ZRANGEBYSCORE', conv, n, n)) do
  local ok, frame = pcall(cjson.decode, m)
  if ok and type(frame) == 'table' and frame.id == up_to then held = true end
end
if not held then return 0 end
local current = number_of(redis.call('HGET', marks, with) or nil)
if current and current >= n then return 1 end
redis.call('HSET', marks, with, up_to)
local unread = count_unread(conv, n, with)
redis.call('PUBLISH', p .. 'msg:' .. user, '\n' .. cjson.encode({ type = 'read_marker',
  with = with, up_to = up_to, unread = unread }))
return 2
