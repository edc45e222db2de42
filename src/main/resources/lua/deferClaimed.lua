--[[
  deferClaimed: give claimed messages back to the due set, each due at a time of its own (a target over its rate limit:
  spread over the time its tokens come), keeping each one's original due time, with no attempt counted.

  Why it is safe: only the holder of a message's lease can give it back (lib/leases); a message whose lease no longer
  matches is skipped. The original due time is written only for messages moved here and only if none is kept already
  (an earlier move), so x-delay-due-at and lateness keep counting from the time the producer asked for, and messages
  never moved cost nothing. All lease checks come before the first write.

  KEYS[1] in-flight set  ZSET  member = message member (lib/memberIds), score = lease deadline (epoch ms)
  KEYS[2] due set        ZSET  member = message member, score = due time (epoch ms)
  KEYS[3] original due   HASH  field = message member, value = its due time before the bridge first moved it

  ARGV[1..] quadruples: message member (as claim.lua returned it, used as given), lease token (the lease deadline the
          claim returned), delay from now in ms when it is due again, its original due time (epoch ms)

  Returns: the number of messages given back (those whose lease no longer matched are skipped)
]]
-- @include lib/redisNow
-- @include lib/leases
local held = {}
for i = 1, #ARGV, 4 do
  if holdsLease(KEYS[1], ARGV[i], ARGV[i + 1]) then held[#held + 1] = i end
end
if #held == 0 then return 0 end
local members, due = {}, {}
for n, i in ipairs(held) do
  members[n] = ARGV[i]
  due[2 * n - 1] = now + tonumber(ARGV[i + 2])
  due[2 * n] = ARGV[i]
end
redis.call('ZREM', KEYS[1], unpack(members))
redis.call('ZADD', KEYS[2], unpack(due))
for _, i in ipairs(held) do
  redis.call('HSETNX', KEYS[3], ARGV[i], ARGV[i + 3])
end
return #held
