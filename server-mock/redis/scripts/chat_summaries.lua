local p, user = ARGV[1], ARGV[2]
local marks = p .. 'read:' .. user
local has_marks = redis.call('TYPE', marks).ok == 'hash'
local result = {}
for i = 3, #ARGV - 1, 2 do
  local other, conv = ARGV[i], ARGV[i + 1]
  local last, mark, unread = false, false, 0
  if redis.call('TYPE', conv).ok == 'zset' then
    local top = redis.call('ZRANGE', conv, -1, -1)
    if top[1] then last = top[1] end
    if has_marks then mark = redis.call('HGET', marks, other) end
    unread = count_unread(conv, number_of(mark or nil) or 0, other)
  end
  result[#result + 1] = last
  result[#result + 1] = mark
  result[#result + 1] = unread
end
return result
