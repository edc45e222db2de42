--[[
  releaseClaim: give back, due at once, the messages a claimer's round claimed in this slot when the claimer
  never got claim.lua's answer (a timeout, a lost connection), so that they need not wait out their lease.
  Not counted as a failed attempt: nothing was published.

  Why it is safe: claim.lua records, per claimer and slot, its round's tag and the lease deadline of each of the
  round's calls, and a deadline names one call's messages (claim.lua makes it unique in the in-flight set). Only
  messages still in flight under one of those deadlines are released: one already reaped, or re-claimed by anyone,
  holds another deadline and is left alone. The claimer sends this on the connection it sent the claim on, so the
  claim, if Redis received it, ran first; with no record of this round the claim did not run (or claimed nothing)
  and nothing is released. The record is deleted, so releasing twice releases once.

  KEYS[1] in-flight set  ZSET    member = message member (lib/memberIds), score = lease deadline (epoch ms)
  KEYS[2] due set        ZSET    member = message member, score = due time (epoch ms)
  KEYS[3] claim record   STRING  "<tag> <deadline> ..." written by claim.lua, expiring with the lease

  ARGV[1] the round's claim tag, as given to claim.lua

  Returns: the number of messages given back to the due set
]]
-- @include lib/redisNow
local record = redis.call('GET', KEYS[3])
if not record or string.sub(record, 1, #ARGV[1] + 1) ~= ARGV[1] .. ' ' then return 0 end
redis.call('DEL', KEYS[3])
local released = 0
for deadline in string.gmatch(string.sub(record, #ARGV[1] + 2), '%S+') do
  local members = redis.call('ZRANGEBYSCORE', KEYS[1], deadline, deadline)
  if #members > 0 then
    local due = {}
    for i, member in ipairs(members) do
      due[2 * i - 1] = now
      due[2 * i] = member
    end
    redis.call('ZREM', KEYS[1], unpack(members))
    redis.call('ZADD', KEYS[2], unpack(due))
    released = released + #members
  end
end
return released
