--[[
  setTargetParked: add a target to one slot's parked targets, or take it out, so that the slot's claims park its
  messages (claim.lua, lib/parked) or take them again. ParkingStore writes every slot, after the target's state
  (changeTargetState.lua) says parked or paused, and before it returns a target's backlog.

  Why it is safe: a single SADD or SREM; a claim sees the target parked or not, never half.

  KEYS[1] parked targets  SET  the targets whose messages this slot parks instead of leasing

  ARGV[1] the target
  ARGV[2] 1 to park its messages, 0 to stop parking them

  Returns: 1 when the set changed, 0 when it already was so
]]
if ARGV[2] == '1' then return redis.call('SADD', KEYS[1], ARGV[1]) end
return redis.call('SREM', KEYS[1], ARGV[1])
