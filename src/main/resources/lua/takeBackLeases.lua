--[[
  takeBackLeases: give back, due at once, every message of this slot still leased by an earlier process of this
  bridge's instance id, when that process is gone (health/InstanceIdGuard: the id was free, or its holder stopped
  renewing it), so that a restarted instance does not wait out its predecessor's leases. Attempts and failing-since
  are left as they are: a crash is not a failed publish.

  Why it is safe: claim.lua records who took the messages of each lease deadline in the lease claimers, and a
  deadline names the messages of one claim call while they are in flight (lib/leases, uniqueLeaseDeadline). Only
  deadlines whose every entry is a claimer of this instance id other than the caller, claimed before the caller
  took the id, are given back: never a live process's (another instance, or a process that took this id after the
  caller), and never a deadline two claimers share. A message already acknowledged, rescheduled or dead-lettered
  is no longer in flight under that deadline and is left alone; the old holder's late settle presents a token that
  no longer matches (lib/leases). A message goes back due at the latest due time of its claim call, or now if that
  has passed, so one claimed ahead is never published early.

  KEYS[1] in-flight set   ZSET  member = message member (lib/memberIds), score = lease deadline (epoch ms)
  KEYS[2] due set         ZSET  member = message member, score = due time (epoch ms)
  KEYS[3] lease claimers  ZSET  member = "<claimer id> <lease deadline> <claimed at> <latest due>", score = the
                                lease deadline (claim.lua)

  ARGV[1] instance id: claimers "<instance id>/<random>" are this id's processes
  ARGV[2] the caller's own claimer id (its leases are never given back)
  ARGV[3] when the caller took the instance id (epoch ms, Redis's clock): only calls claimed before it are given back

  Returns: the number of messages given back to the due set
]]
-- @include lib/redisNow
local prefix, own, tookAt = ARGV[1] .. '/', ARGV[2], tonumber(ARGV[3])
local entries = redis.call('ZRANGEBYSCORE', KEYS[3], '(' .. now, '+inf', 'WITHSCORES')
-- per deadline: whether every entry of it may be given back, and the latest due time among them
local byDeadline, order = {}, {}
for i = 1, #entries, 2 do
  local claimer, claimedAt, latestDue = string.match(entries[i], '^(.*) %d+ (%d+) (%d+)$')
  local deadline = entries[i + 1]
  local taken = claimer ~= nil and claimer ~= own and string.sub(claimer, 1, #prefix) == prefix
    and tonumber(claimedAt) < tookAt
  local seen = byDeadline[deadline]
  if not seen then
    seen = { taken = taken, due = tonumber(latestDue) or now }
    byDeadline[deadline] = seen
    order[#order + 1] = deadline
  else
    seen.taken = seen.taken and taken
    seen.due = math.max(seen.due, tonumber(latestDue) or now)
  end
end
local givenBack = 0
for _, deadline in ipairs(order) do
  local seen = byDeadline[deadline]
  if seen.taken then
    local members = redis.call('ZRANGEBYSCORE', KEYS[1], deadline, deadline)
    if #members > 0 then
      local dueAt = math.max(now, seen.due)
      local due = {}
      for i, member in ipairs(members) do
        due[2 * i - 1] = dueAt
        due[2 * i] = member
      end
      redis.call('ZREM', KEYS[1], unpack(members))
      redis.call('ZADD', KEYS[2], unpack(due))
      givenBack = givenBack + #members
    end
    redis.call('ZREMRANGEBYSCORE', KEYS[3], deadline, deadline)
  end
end
return givenBack
