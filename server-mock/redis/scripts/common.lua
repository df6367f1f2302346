local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- RANK, the availability order (higher is more available), is not written here: RedisScripts.cpp
-- puts it before this file, generated from the protocol's (protocol/PresenceStatus.h).

-- What the devices of a user (their st: hash) add up to: the most available status any of them
-- chose. invisible has no RANK, so invisible devices count as absent.
local function aggregate(st)
  local best = 'offline'
  for _, v in ipairs(redis.call('HVALS', st)) do
    if RANK[v] and RANK[v] > RANK[best] then best = v end
  end
  return best
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
  drop_foreign(p .. 'live:' .. u, 'string')
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
local function renew_epoch(p)
  local t = redis.call('TIME')
  local epoch = t[1] .. string.format('%06d', tonumber(t[2]))
  redis.call('SET', p .. 'epoch', epoch)
  return epoch
end

local function store_epoch(p)
  local key = p .. 'epoch'
  drop_foreign(key, 'string')
  local epoch = redis.call('GET', key)
  if not epoch or not string.match(epoch, '^[0-9]+$') or #epoch > 20 then
    epoch = renew_epoch(p)
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

-- The safety net for when no gateway is left to sweep: <p>live:<u> exists while u's published
-- status may be other than offline, and Redis itself expires it at u's last device expiry plus
-- the grace (or the grace from now, once the last device left). A reader takes a published
-- status without it as offline. Its value is when it was last written.
local function keep_alive(p, u, now, grace_ms)
  local last = redis.call('ZRANGE', p .. 'dev:' .. u, -1, -1, 'WITHSCORES')
  local until_ms = now
  if last[2] and tonumber(last[2]) > now then until_ms = tonumber(last[2]) end
  redis.call('SET', p .. 'live:' .. u, now, 'PX', math.max(1, until_ms - now + grace_ms))
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
