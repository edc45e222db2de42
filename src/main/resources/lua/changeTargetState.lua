--[[
  changeTargetState: set or delete a target's parking state, only if its current state is of the kinds given (a
  compare-and-set shared by every instance: two instances that see a target fail both try to park it, one succeeds).

  Why it is safe: the read and the write are one step.

  KEYS[1] target states  HASH  field = target, value = "<kind> <since> <next probe at> <probe backoff ms>"
                               (store/parking/TargetState); kind parked, paused or returning

  ARGV[1] the target
  ARGV[2] its new state, or '' to delete it
  ARGV[3] the kinds it may have now, space-separated; 'none' for no state

  Returns: { changed, previous }
    changed   1 when the state was written, 0 when the current one was of another kind
    previous  the state before this call, '' for none
]]
local previous = redis.call('HGET', KEYS[1], ARGV[1]) or ''
local kind = previous == '' and 'none' or string.match(previous, '^(%S+)')
local allowed = false
for word in string.gmatch(ARGV[3], '%S+') do
  if word == kind then allowed = true end
end
if not allowed then return { 0, previous } end
if ARGV[2] == '' then redis.call('HDEL', KEYS[1], ARGV[1]) else redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
return { 1, previous }
