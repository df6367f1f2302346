#include "server-mock/redis/RedisScripts.h"

#include <QCryptographicHash>

namespace Presence::Gateway {

namespace {

// Shared by the scripts: the presence rules of PresenceRules.cpp, in Lua, and the one place
// that changes what is published. Keys of user u: <p>dev:<u> (ZSET member -> expiry ms),
// <p>st:<u> (HASH member -> chosen status), <p>pub:<u> (HASH status, seq, last_seen,
// pending, grace_at), <p>due (ZSET user -> next due ms), <p>epoch (STRING); channel <p>ch:<u>.
constexpr char kCommon[] = R"lua(
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

local RANK = { offline = 0, away = 1, online = 2 }

local function aggregate(st)
  local online, away = 0, 0
  for _, v in ipairs(redis.call('HVALS', st)) do
    if v == 'online' then online = online + 1 elseif v == 'away' then away = away + 1 end
  end
  if online > 0 then return 'online' end
  if away > 0 then return 'away' end
  return 'offline'
end

local function decide(published, current, cause)
  if current == published then return 'nothing' end
  if cause == 'grace' then return 'now' end
  if RANK[current] > RANK[published] then return 'now' end
  if current == 'offline' or cause == 'left' then return 'grace' end
  return 'now'
end

local function keys(p, u)
  return p .. 'dev:' .. u, p .. 'st:' .. u, p .. 'pub:' .. u
end

-- A key of the wrong type, or a pub: hash whose status, seq or last_seen presence did not write,
-- would make every script touching it fail, over and over: presence drops it and starts afresh.
local function drop_foreign(key, want)
  local kind = redis.call('TYPE', key).ok
  if kind ~= 'none' and kind ~= want then
    redis.log(redis.LOG_WARNING, 'presence: dropped ' .. key .. ', a ' .. kind .. ' not a ' .. want)
    redis.call('DEL', key)
    return true
  end
  return false
end

local function sane(p, u)
  local dev, st, pub = keys(p, u)
  drop_foreign(dev, 'zset')
  drop_foreign(st, 'hash')
  if not drop_foreign(pub, 'hash') then
    local held = redis.call('HMGET', pub, 'status', 'seq', 'last_seen')
    local seq = tonumber(held[2] or '0')
    if (held[1] and not RANK[held[1]]) or not seq or seq < 0 or seq ~= math.floor(seq)
        or (held[3] and not tonumber(held[3])) then
      redis.log(redis.LOG_WARNING, 'presence: dropped ' .. pub .. ', not a presence')
      redis.call('DEL', pub)
    end
  end
end

-- The store's epoch: chosen (from Redis's clock, in microseconds) the first time a sweep finds
-- none. A Redis that lost its data (FLUSHALL, a restart without persistence) has none, so the
-- next sweep chooses a new one; a gateway that sees it change knows seq counts from 0 again.
local function store_epoch(p)
  local key = p .. 'epoch'
  drop_foreign(key, 'string')
  local epoch = redis.call('GET', key)
  if not epoch or not string.match(epoch, '^[0-9]+$') or #epoch > 20 then
    local t = redis.call('TIME')
    epoch = t[1] .. string.format('%06d', tonumber(t[2]))
    redis.call('SET', key, epoch)
  end
  return epoch
end

-- Records when the user is next due (earliest device expiry or grace end); returns ms to it.
local function schedule(p, u, now)
  local dev, _, pub = keys(p, u)
  drop_foreign(p .. 'due', 'zset')
  local due = nil
  local first = redis.call('ZRANGE', dev, 0, 0, 'WITHSCORES')
  if first[2] then due = tonumber(first[2]) end
  local grace_at = tonumber(redis.call('HGET', pub, 'grace_at') or '')
  if grace_at and (not due or grace_at < due) then due = grace_at end
  if due then
    redis.call('ZADD', p .. 'due', due, u)
    return math.max(0, due - now)
  end
  redis.call('ZREM', p .. 'due', u)
  return -1
end

-- Publishes or arms the grace for user u after a change of `cause`; `before` is the
-- aggregate before the change (for last_seen).
local function settle(p, u, before, cause, now, grace_ms)
  local _, st, pub = keys(p, u)
  local current = aggregate(st)
  if before ~= 'offline' and current == 'offline' then
    redis.call('HSET', pub, 'last_seen', now)
  end
  local held = redis.call('HMGET', pub, 'status', 'pending', 'grace_at')
  local published = held[1] or 'offline'
  local verdict = decide(published, current, cause)
  if verdict == 'nothing' then
    redis.call('HDEL', pub, 'pending', 'grace_at')
  elseif verdict == 'grace' then
    -- The grace counts from the change that made the user less available.
    if not held[3] or held[2] ~= current then
      redis.call('HSET', pub, 'pending', current, 'grace_at', now + grace_ms)
    end
  else
    redis.call('HDEL', pub, 'pending', 'grace_at')
    redis.call('HSET', pub, 'status', current)
    local seq = redis.call('HINCRBY', pub, 'seq', 1)
    local message = { id = u, status = current, seq = seq }
    if current == 'offline' then
      message.last_seen = tonumber(redis.call('HGET', pub, 'last_seen') or '')
    end
    redis.call('PUBLISH', p .. 'ch:' .. u, cjson.encode(message))
  end
  return schedule(p, u, now)
end

-- Drops the devices of u whose expiry passed; returns how many.
local function expire(p, u, now)
  local dev, st = keys(p, u)
  local gone = redis.call('ZRANGEBYSCORE', dev, '-inf', now)
  for _, m in ipairs(gone) do
    redis.call('ZREM', dev, m)
    redis.call('HDEL', st, m)
  end
  return #gone
end
)lua";

constexpr char kDevice[] = R"lua(
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
return settle(p, u, before, cause, now, grace)
)lua";

constexpr char kRefresh[] = R"lua(
local p, ttl = ARGV[1], tonumber(ARGV[2])
local now = now_ms()
local missing = {}
for i = 3, #ARGV, 2 do
  local u, m = ARGV[i], ARGV[i + 1]
  sane(p, u)
  local dev = p .. 'dev:' .. u
  if redis.call('ZADD', dev, 'XX', 'CH', now + ttl, m) == 0 and not redis.call('ZSCORE', dev, m) then
    missing[#missing + 1] = u
    missing[#missing + 1] = m
  else
    schedule(p, u, now)
  end
end
return missing
)lua";

constexpr char kSweep[] = R"lua(
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
)lua";

// Shared by the chat scripts. Keys: <p>chat:<a>|<b> (ZSET score n -> the message frame, a < b),
// <p>chat:ids (HASH epoch, next), <p>convs:<u> (ZSET other user -> n of the conversation's
// newest message), <p>read:<u> (HASH other user -> the id of u's read marker); channel
// <p>msg:<u>. Message n of the Redis store is "m<epoch>.<n>": n grows along every conversation,
// and a new epoch after Redis lost the hash keeps ids from repeating.
constexpr char kChatCommon[] = R"lua(
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
)lua";

constexpr char kChatAppend[] = R"lua(
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
)lua";

// ARGV: prefix, user, with, up_to, then the two user ids as the gateway sorts them. Returns 0
// when up_to is not a message of the conversation, 1 when the marker is at or past it already,
// 2 when it moved there (and was published on the user's channel with an empty origin, so that
// every gateway delivers it, the one that ran this included).
constexpr char kChatRead[] = R"lua(
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
)lua";

// ARGV: prefix, user, then pairs of the other user and the conversation's key. Returns, flat,
// for each pair: the newest message (nil when the conversation is gone), the user's marker
// (nil when none) and the unread count.
constexpr char kChatSummaries[] = R"lua(
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
)lua";

RedisScript make(const char *body, const char *extra = "")
{
    RedisScript script;
    script.source = QByteArray(kCommon) + QByteArray(extra) + QByteArray(body);
    script.sha1 = QCryptographicHash::hash(script.source, QCryptographicHash::Sha1).toHex();
    return script;
}

} // namespace

const RedisScript &RedisScripts::device()
{
    static const RedisScript script = make(kDevice);
    return script;
}

const RedisScript &RedisScripts::refresh()
{
    static const RedisScript script = make(kRefresh);
    return script;
}

const RedisScript &RedisScripts::sweep()
{
    static const RedisScript script = make(kSweep);
    return script;
}

const RedisScript &RedisScripts::chatAppend()
{
    static const RedisScript script = make(kChatAppend, kChatCommon);
    return script;
}

const RedisScript &RedisScripts::chatRead()
{
    static const RedisScript script = make(kChatRead, kChatCommon);
    return script;
}

const RedisScript &RedisScripts::chatSummaries()
{
    static const RedisScript script = make(kChatSummaries, kChatCommon);
    return script;
}

} // namespace Presence::Gateway
