--[[
  acknowledge: forget messages the downstream broker has confirmed, and remember their ids
  (as their members) for the dedupe window.

  Why it is safe: a message is deleted only if it is still in flight under the caller's lease
  deadline (its lease token, lib/leases). An instance that lost its lease (it stalled past the
  deadline and another instance re-claimed the message, with a later deadline) cannot delete the
  message the other instance is now delivering.

  KEYS[1] in-flight set  ZSET  member = message member (lib/memberIds), score = lease deadline (epoch ms)
  KEYS[2] payloads       HASH  field = message member, value = envelope bytes
  KEYS[3] attempts       HASH  field = message member, value = failed delivery attempts so far
  KEYS[4] delivered set  ZSET  member = message member, score = delivery time (epoch ms)
  KEYS[5] failing since  HASH  field = message member, value = time of its first failed publish (recordFailure.lua)
  KEYS[6] group index prefix  STRING prefix: the key of a group's index is this followed by the group name (lib/groups)
  KEYS[7] original due   HASH  field = message member, value = its due time before the bridge moved it (deferClaimed.lua)

  ARGV[1] dedupe window in ms (0 keeps no delivered record)
  ARGV[2..] groups of three: message member (as claim.lua returned it, used as given), lease token (the lease
          deadline the claim returned), the message's group ("" for none: the bridge reads it from the claimed
          envelope, so an ungrouped message costs no look-up here)

  Returns: the number of messages acknowledged (pairs whose lease no longer matched are skipped)
]]
-- @include lib/redisNow
-- @include lib/leases
-- @include lib/groups
local window = tonumber(ARGV[1])
local members, tokens, groups = {}, {}, {}
for i = 2, #ARGV, 3 do
  members[#members + 1] = ARGV[i]
  tokens[#tokens + 1] = ARGV[i + 1]
  if ARGV[i + 2] ~= '' then groups[ARGV[i]] = ARGV[i + 2] end
end
local acknowledged = 0
if #members > 0 then
  -- batched commands, as in claim.lua: a few calls per batch instead of five per message
  local settled, records = heldLeases(KEYS[1], members, tokens), {}
  -- the time as text once, not formatted again per message
  local at = tostring(now)
  for i, member in ipairs(settled) do
    records[2 * i - 1] = at
    records[2 * i] = member
  end
  acknowledged = #settled
  if acknowledged > 0 then
    redis.call('ZREM', KEYS[1], unpack(settled))
    for _, member in ipairs(settled) do
      if groups[member] then groupIndexRemove(KEYS[6], groups[member], member) end
    end
    redis.call('HDEL', KEYS[2], unpack(settled))
    -- usually absent (no message of the batch failed a publish): skipped then, as converting every member to a
    -- command argument is what a delete from a missing key costs
    if redis.call('EXISTS', KEYS[3]) == 1 then redis.call('HDEL', KEYS[3], unpack(settled)) end
    if redis.call('EXISTS', KEYS[5]) == 1 then redis.call('HDEL', KEYS[5], unpack(settled)) end
    if redis.call('EXISTS', KEYS[7]) == 1 then redis.call('HDEL', KEYS[7], unpack(settled)) end
    if window > 0 then redis.call('ZADD', KEYS[4], unpack(records)) end
  end
end
if window > 0 then
  -- bounded trim so that one call never runs long after a quiet period
  local expired = redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', now - window, 'LIMIT', 0, 1000)
  if #expired > 0 then redis.call('ZREM', KEYS[4], unpack(expired)) end
end
return acknowledged
