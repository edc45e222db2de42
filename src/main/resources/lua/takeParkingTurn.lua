--[[
  takeParkingTurn: take or keep the turn to probe parked targets, expire their oldest messages and return the
  backlog of those that answer again (dispatch/parking/ParkedTargetsWork), so that one instance does that work at a
  time and a backlog goes back at the rate set, not at that rate times the instances.

  Why it is safe: one SET NX, or a PEXPIRE by the holder; a holder that dies loses the turn when it expires.

  KEYS[1] parking turn  STRING  the holder's id, expiring unless renewed

  ARGV[1] the caller's id
  ARGV[2] how long the turn lasts unless renewed, in ms

  Returns: { held }
    held  1 when the caller holds the turn now, 0 when another does
]]
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', tonumber(ARGV[2])) then return { 1 } end
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
  return { 1 }
end
return { 0 }
