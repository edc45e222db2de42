--[[
  resolveNames: the names of some codes of a slot's names hash, for the bridge's copy of the hash
  (store/SlotNames), which turns claimed members and payloads back into ids and the wire form
  (claim.lua returns them as stored). Called only for codes the copy lacks: names that were
  interned after the copy last learnt any, or all of them after a restart.

  Why a script and not HMGET: the tag comes back in the same atomic read, so the names can never be
  those of a hash that replaced the one the caller's tag names (a deleted hash that a later write
  recreated starts with a new tag, lib/nameCodes).

  KEYS[1] names  HASH  c:<code> = name, n:<name> = code, next, tag (lib/nameCodes; append-only)

  ARGV[1..] codes: a code (a decimal number)

  Returns: { tag, name1, name2, ... }
    tag      the hash's tag, or -1 when it has none (never written, or lost)
    name     the name with that code, in ARGV's order; nil when the hash has no such code
]]
local result = { tonumber(redis.call('HGET', KEYS[1], 'tag')) or -1 }
if #ARGV > 0 then
  local fields = {}
  for i = 1, #ARGV do fields[i] = 'c:' .. ARGV[i] end
  local names = redis.call('HMGET', KEYS[1], unpack(fields))
  for i = 1, #ARGV do result[i + 1] = names[i] end
end
return result
