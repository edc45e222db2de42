--[[
  parked (a fragment): how the messages of a parked or paused target sit in their slot (store/Keys.parkedTargets,
  parkedIndexPrefix, parkedExempt).

  A parked message stays in the due set, so that every script that finds a pending message by its member (cancel,
  changeDueTime, replace, inspect, the group operations) finds it as before, but at its due time plus PARKED_OFFSET:
  past every due time the bridge accepts, so claims, which read the due set up to now, never see it, while the score
  still holds its due time exactly (a double holds integers exactly up to 2^53; 4e15 plus an epoch-ms time stays far
  below). The offset is readable in redis-cli: 4001733331234567 is a message due at 1733331234567, parked.

  Beside it, the target's parked index in the slot (ZSET, key = index prefix .. target, member = message member,
  score = due time) lists the target's parked messages in due order, for their return and for expiry. An entry whose
  member no longer sits parked in the due set (cancelled, or moved by changeDueTime or a group reschedule, which
  unpark it: a later claim parks it again while its target stays parked) is stale, and dropped where it is read.

    PARKED_OFFSET
    dueOfScore(score)           the due time a due-set score stands for, parked or not
    isParked(dueKey, member)    the due time of a member that sits parked in the due set, or false
]]
local PARKED_OFFSET = 4000000000000000

local function dueOfScore(score)
  if score >= PARKED_OFFSET then return score - PARKED_OFFSET end
  return score
end

local function isParked(dueKey, member)
  local score = tonumber(redis.call('ZSCORE', dueKey, member))
  if score and score >= PARKED_OFFSET then return score - PARKED_OFFSET end
  return false
end
