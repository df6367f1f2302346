-- The n of a message id, or nil.
local function number_of(id)
  return tonumber(string.match(id or '', '^m[0-9a-z]+%.([0-9]+)$') or '')
end

-- Messages of conv after the one numbered n that `from` sent. Members are cjson's compact
-- encoding, where a text holding the same characters has its quotes escaped: a plain find is
-- exact, and cheaper than decoding each member.
local function count_unread(conv, n, from)
  local needle = '"from":' .. cjson.encode(from)
  local unread = 0
  for _, m in ipairs(redis.call('ZRANGEBYSCORE', conv, '(' .. n, '+inf')) do
    if string.find(m, needle, 1, true) then unread = unread + 1 end
  end
  return unread
end
